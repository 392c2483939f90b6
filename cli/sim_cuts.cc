#include "cli/sim_cuts.h"

#include "sim/oracle.h"
#include "workloads/fio/fio_run.h"

namespace storlab::cli {
namespace {

// How long the jobs run, from their start to the last one's end.
Result<Nanos> JobsSpan(const SimArgs& a, const std::vector<fio::RawSection>& sections,
                       uint64_t seed) {
  ASSIGN_OR_RETURN(auto jobs, fio::BuildJobs(sections, seed));
  HostOptions ho = a.host;
  ho.seed = seed;
  ho.oracle = ho.keep_data = false;
  ASSIGN_OR_RETURN(auto host, SimHost::Create(ho));
  fio::FioRun run(*host, std::move(jobs));
  RETURN_IF_ERROR(run.Prepare());
  const Nanos t0 = host->engine().now();
  RETURN_IF_ERROR(run.Run({}));
  return run.end_time() - t0;
}

}  // namespace

Result<std::vector<Nanos>> CutTimes(const SimArgs& a, const std::vector<fio::RawSection>& sections,
                                    uint64_t seed, Nanos t0) {
  if (a.power_cut_at) return std::vector<Nanos>{t0 + *a.power_cut_at};
  ASSIGN_OR_RETURN(Nanos span, JobsSpan(a, sections, seed));
  return SeededCutTimes(seed, a.power_cuts, t0, t0 + Max(span, Nanos(1)));
}

nlohmann::ordered_json CutsJson(const CutSummary& s) {
  nlohmann::ordered_json j;
  j["cuts"] = s.cuts.size();
  j["blocks_checked"] = s.blocks_checked;
  j["durable_intact"] = s.durable_intact;
  j["lost_allowed"] = s.lost_allowed;
  j["lost_unhonoured"] = s.lost_unhonoured;
  j["unhonoured_by"] = s.unhonoured_by;
  j["violations"] = s.violations;
  j["read_errors"] = s.read_errors;
  j["failed_checks"] = s.failed_checks;
  auto details = nlohmann::ordered_json::array();
  auto per_cut = nlohmann::ordered_json::array();
  for (size_t i = 0; i < s.cuts.size(); ++i) {
    const CutResult& c = s.cuts[i];
    if (s.cuts.size() <= 100) {
      nlohmann::ordered_json e;
      e["at_ns"] = (c.at - s.origin).count();
      e["blocks_checked"] = c.blocks_checked;
      e["blocks_newest"] = c.blocks_newest;
      e["blocks_older"] = c.blocks_older;
      e["violations"] = c.violations;
      e["read_errors"] = c.read_errors;
      if (!c.failure.empty()) e["failure"] = c.failure;
      auto held = nlohmann::ordered_json::array();
      for (const auto& [node, bytes] : c.volatile_holders) {
        held.push_back({{"node", node}, {"bytes", bytes}});
      }
      e["volatile"] = held;
      per_cut.push_back(e);
    }
    for (const auto& v : c.first) {
      if (details.size() >= 20) break;
      nlohmann::ordered_json e;
      e["cut"] = i;
      e["at_ns"] = (c.at - s.origin).count();
      e["offset"] = v.offset;
      e["found"] = OracleHashHex(v.found);
      auto acc = nlohmann::ordered_json::array();
      for (uint64_t h : v.acceptable) acc.push_back(OracleHashHex(h));
      e["expected"] = acc;
      e["what"] = v.what;
      e["counted_as"] = c.promise_broken ? "lost_unhonoured" : "violation";
      // Where it can have been: the nodes that held volatile data at the cut.
      auto held = nlohmann::ordered_json::array();
      for (const auto& h : c.volatile_holders) held.push_back(h.first);
      e["held_volatile_by"] = held;
      details.push_back(e);
    }
  }
  if (s.cuts.size() <= 100) j["per_cut"] = per_cut;
  j["losses"] = details;
  // The jobs' reads the oracle found stale or corrupted (a `corrupt` fault).
  j["read_violations"] = s.read_violations;
  auto reads = nlohmann::ordered_json::array();
  for (const auto& v : s.first_read_violations) {
    nlohmann::ordered_json e;
    e["offset"] = v.offset;
    e["found"] = OracleHashHex(v.found);
    auto acc = nlohmann::ordered_json::array();
    for (uint64_t h : v.acceptable) acc.push_back(OracleHashHex(h));
    e["expected"] = acc;
    e["what"] = v.what;
    reads.push_back(e);
  }
  j["read_violation_blocks"] = reads;
  return j;
}

}  // namespace storlab::cli
