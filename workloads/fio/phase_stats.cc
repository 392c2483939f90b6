#include "workloads/fio/phase_stats.h"

namespace storlab::fio {

std::vector<PhaseStats::NodeMark> PhaseStats::Mark(const Stack& stack, Nanos now) {
  std::vector<NodeMark> out;
  out.reserve(stack.nodes().size());
  for (const auto& n : stack.nodes()) {
    NodeMark m;
    for (int o = 0; o < kOpCount; ++o) {
      const OpStats& s = n->stats().op(static_cast<Op>(o));
      m.ops[o] = OpMark{
          .ops = s.ops,
          .bytes = s.bytes,
          .errors = s.errors,
          .latency_sum_ns = s.latency_ns.mean() * static_cast<double>(s.latency_ns.samples())};
    }
    m.busy = n->stats().BusyTime(now);
    out.push_back(m);
  }
  return out;
}

void PhaseStats::End(const Stack& stack, Nanos now) {
  if (phases_.empty() || !phases_.back().at_end.empty()) return;
  phases_.back().end = now;
  phases_.back().at_end = Mark(stack, now);
}

void PhaseStats::Begin(int segment, const Stack& stack, Nanos now) {
  std::vector<NodeMark> mark = Mark(stack, now);
  if (!phases_.empty() && phases_.back().at_end.empty()) {
    phases_.back().end = now;
    phases_.back().at_end = mark;
  }
  phases_.push_back(
      Phase{.segment = segment, .start = now, .end = now, .at_start = mark, .at_end = {}});
}

namespace {

// b - a, or b when the counters were reset in between (b < a).
uint64_t Diff(uint64_t a, uint64_t b) { return b >= a ? b - a : b; }

}  // namespace

nlohmann::ordered_json PhaseStats::Json(const Stack& stack, Nanos now,
                                        const std::vector<std::vector<std::string>>& jobs) const {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const std::vector<NodeMark> last = Mark(stack, now);
  for (size_t p = 0; p < phases_.size(); ++p) {
    const Phase& ph = phases_[p];
    const bool open = ph.at_end.empty();
    const Nanos end = open ? now : ph.end;
    const std::vector<NodeMark>& at_end = open ? last : ph.at_end;
    const double seconds = static_cast<double>((end - ph.start).count()) / 1e9;
    nlohmann::ordered_json j;
    j["segment"] = ph.segment;
    const size_t seg = static_cast<size_t>(ph.segment);
    j["jobs"] = seg < jobs.size() ? jobs[seg] : std::vector<std::string>{};
    j["start_ns"] = ph.start.count();
    j["end_ns"] = end.count();
    nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
    for (size_t i = 0; i < at_end.size(); ++i) {
      const NodeMark zero{};
      const NodeMark& a = i < ph.at_start.size() ? ph.at_start[i] : zero;
      const NodeMark& b = at_end[i];
      nlohmann::ordered_json ops = nlohmann::ordered_json::object();
      for (int o = 0; o < kOpCount; ++o) {
        const uint64_t n = Diff(a.ops[o].ops, b.ops[o].ops);
        const uint64_t errors = Diff(a.ops[o].errors, b.ops[o].errors);
        if (n == 0 && errors == 0) continue;
        const uint64_t bytes = Diff(a.ops[o].bytes, b.ops[o].bytes);
        const double lat = b.ops[o].ops >= a.ops[o].ops
                               ? b.ops[o].latency_sum_ns - a.ops[o].latency_sum_ns
                               : b.ops[o].latency_sum_ns;
        ops[OpName(static_cast<Op>(o))] = {
            {"ops", n},
            {"bytes", bytes},
            {"errors", errors},
            {"bytes_per_s", seconds > 0 ? static_cast<double>(bytes) / seconds : 0.0},
            {"mean_latency_ns", n ? lat / static_cast<double>(n) : 0.0}};
      }
      const Nanos busy = b.busy >= a.busy ? b.busy - a.busy : b.busy;
      nodes.push_back({{"name", stack.nodes()[i]->name()},
                       {"type", std::string(stack.nodes()[i]->type())},
                       {"ops", ops},
                       {"busy_ns", busy.count()}});
    }
    j["nodes"] = nodes;
    out.push_back(j);
  }
  return out;
}

}  // namespace storlab::fio
