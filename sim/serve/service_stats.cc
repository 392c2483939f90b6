// The service's stats (service.h): its own counters, the real-time driver's
// lateness and inbox wait, compensation, the oracles, and every node of the
// stack (sim/stats_json.h) — the NBD plugin's stats=FILE and the FUSE
// mount's .storlab/stats.json. And the start-up warning of an export that
// the transport will hold back.
#include <cstdio>
#include <fstream>

#include "sim/quoted.h"
#include "sim/serve/model_speed.h"
#include "sim/serve/service.h"
#include "sim/stats_json.h"
#include "sim/store/store.h"

namespace storlab {
namespace {

std::string StoreName(const DataMode& m) {
  switch (m.kind) {
    case DataMode::Kind::kNone:
      return "none";
    case DataMode::Kind::kRam:
      return "memory";
    case DataMode::Kind::kFile:
      return "file:" + m.directory;
  }
  return "?";
}

nlohmann::ordered_json ReportJson(const OracleReport& r) {
  nlohmann::ordered_json j;
  j["blocks_checked"] = r.blocks_checked;
  j["blocks_newest"] = r.blocks_newest;
  j["blocks_older"] = r.blocks_older;
  j["read_errors"] = r.read_errors;
  j["violations"] = r.violations.size();
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (size_t i = 0; i < r.violations.size() && i < 20; ++i) {
    const auto& v = r.violations[i];
    list.push_back(
        {{"offset", v.offset}, {"found", v.found}, {"acceptable", v.acceptable}, {"what", v.what}});
  }
  j["violation_list"] = list;
  return j;
}

}  // namespace

nlohmann::ordered_json Service::StatsOnEngine() const {
  nlohmann::ordered_json s;
  s["stack"] = stack_name_;
  s["seed"] = options_.seed;
  s["store"] = StoreName(options_.store);
  s["time_ns"] = engine_.now().count();
  nlohmann::ordered_json ex = nlohmann::ordered_json::array();
  for (const auto& e : exports_) {
    const ExportInfo& i = e.info;
    ex.push_back({{"name", i.name},
                  {"size", i.size},
                  {"min_block", i.min_block},
                  {"preferred_block", i.preferred_block},
                  {"max_block", i.max_block},
                  {"rotational", i.rotational},
                  {"trim", i.trim},
                  {"volatile_cache", i.volatile_cache},
                  {"honors_flush", i.honors_flush},
                  {"honors_fua", i.honors_fua},
                  {"fast_zero", i.fast_zero},
                  {"read_cache", i.read_cache},
                  {"in_flight", e.port->in_flight()}});
  }
  s["exports"] = ex;
  s["requests"] = {{"submitted", submitted_.load()},
                   {"completed", completed_.load()},
                   {"refused", refused_.load()},
                   {"aborted", aborted_}};
  s["power_cuts"] = power_cuts_;
  const RealtimeDriver::Counters c = driver_.counters();
  s["driver"] = {{"lateness_ns", HistogramJson(driver_.Lateness())},
                 {"inbox_wait_ns", HistogramJson(driver_.InboxWait())},
                 {"events", c.events},
                 {"posted", c.posted},
                 {"run_here", c.run_here},
                 {"sleeps", c.sleeps},
                 {"woken_early", c.woken_early},
                 {"run_here_wakes", c.run_here_wakes}};
  {
    std::lock_guard<std::mutex> l(hand_back_mu_);
    // Requests answered on another thread than their caller's (the rest ran
    // to completion on it), and how long the caller took to wake.
    s["hand_backs"] = hand_back_.samples();
    s["hand_back_ns"] = HistogramJson(hand_back_);
  }
  s["compensation"] = comp_.Json();
  nlohmann::ordered_json oracles = nlohmann::ordered_json::array();
  for (size_t i = 0; i < exports_.size(); ++i) {
    const Oracle* o = exports_[i].oracle;
    if (o == nullptr) continue;
    nlohmann::ordered_json j;
    j["export"] = exports_[i].info.name;
    j["blocks_tracked"] = o->blocks_tracked();
    j["read_violations"] = o->read_violation_count();
    if (power_cuts_ > 0) j["last_power_cut"] = ReportJson(last_verify_[i]);
    oracles.push_back(j);
  }
  s["oracle"] = oracles;
  // What each device's store holds in host memory or disk (the RAM store's
  // chunks: sim/store/page_arena.h).
  nlohmann::ordered_json stores = nlohmann::ordered_json::array();
  for (const auto& n : loaded_.stack->nodes()) {
    const Store* store = n->durable_store();
    if (store == nullptr) continue;
    StatList figures;
    store->AppendStats(figures);
    nlohmann::ordered_json j;
    j["node"] = n->name();
    for (const auto& v : figures) j[v.name] = v.value;
    stores.push_back(j);
  }
  s["stores"] = stores;
  nlohmann::ordered_json out;
  out["service"] = s;
  out["stack"] = StackStatsJson(*loaded_.stack);
  return out;
}

nlohmann::ordered_json Service::Stats() {
  nlohmann::ordered_json j;
  if (driver_.running() && driver_.Call([&] { j = StatsOnEngine(); }).ok()) return j;
  return StatsOnEngine();  // not running: nothing else touches the engine
}

Status Service::WriteStats() {
  if (options_.stats_path.empty()) return Status();
  const std::string text = Stats().dump(2) + "\n";
  const std::string tmp = options_.stats_path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    out.flush();
    if (!out) return Status::IoError("stats: cannot write " + Quoted(tmp, 256));
  }
  if (std::rename(tmp.c_str(), options_.stats_path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return Status::IoError("stats: cannot rename " + Quoted(tmp, 256) + " to " +
                           Quoted(options_.stats_path, 256));
  }
  return Status();
}

std::string Service::SpeedWarning(int export_index, Nanos transport_rtt,
                                  double transport_iops) const {
  const ExportInfo& info = infos_[export_index];
  auto speed = MeasureModelSpeed(options_.stack, info.name, options_.seed);
  if (!speed.ok()) return "";
  char buf[512];
  std::string out;
  const double rtt_us = transport_rtt.micros();
  if (speed->qd1_latency_us == 0) {
    std::snprintf(buf, sizeof buf,
                  "export '%s': the model answers at once (no latency): a client sees only the "
                  "export path, about %.0f us a round trip at QD1. ",
                  info.name.c_str(), rtt_us);
    out += buf;
  } else if (speed->qd1_latency_us < rtt_us) {
    std::snprintf(buf, sizeof buf,
                  "export '%s': the model answers a 4 KiB random read at QD1 in %.1f us "
                  "(%.0f IOPS), faster than a round trip of the export path (about %.0f us): "
                  "at QD1 it will deliver about %.0f%% of the model's IOPS. ",
                  info.name.c_str(), speed->qd1_latency_us, speed->qd1_iops, rtt_us,
                  100.0 * speed->qd1_latency_us / rtt_us);
    out += buf;
  }
  if (transport_iops > 0 && (speed->qd32_iops > transport_iops || speed->qd1_latency_us == 0)) {
    if (speed->qd1_latency_us == 0) return out;  // no figure to compare
    std::snprintf(buf, sizeof buf,
                  "export '%s': at QD32 the model serves %.0fk IOPS, the transport about "
                  "%.0fk: the export will deliver at most %.0f%% of it.",
                  info.name.c_str(), speed->qd32_iops / 1e3, transport_iops / 1e3,
                  100.0 * transport_iops / speed->qd32_iops);
    out += buf;
  }
  return out;
}

}  // namespace storlab
