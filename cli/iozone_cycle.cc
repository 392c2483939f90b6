#include "cli/iozone_cycle.h"

#include <cstdio>

#include "sim/stat_table.h"

namespace storlab::cli {
namespace {

double ModelValue(const StatList& l, const std::string& name) {
  for (const auto& v : l) {
    if (v.name == name) return v.value;
  }
  return 0;
}

}  // namespace

StackSnapshot TakeSnapshot(const Stack& stack) {
  StackSnapshot s;
  for (const auto& n : stack.nodes()) {
    StackSnapshot::NodeFigures f;
    f.name = n->name();
    for (int o = 0; o < kOpCount; ++o) {
      const OpStats& st = n->stats().op(static_cast<Op>(o));
      f.ops[o] = st.ops;
      f.bytes[o] = st.bytes;
      f.errors[o] = st.errors;
    }
    n->AppendStats(f.model);
    s.nodes.push_back(std::move(f));
  }
  return s;
}

nlohmann::ordered_json CycleJson(int cycle, Nanos time, const StackSnapshot& start,
                                 const StackSnapshot& end) {
  nlohmann::ordered_json j;
  j["cycle"] = cycle;
  j["time_ns"] = time.count();
  nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
  for (size_t i = 0; i < end.nodes.size() && i < start.nodes.size(); ++i) {
    const auto& a = start.nodes[i];
    const auto& b = end.nodes[i];
    nlohmann::ordered_json n;
    n["name"] = b.name;
    nlohmann::ordered_json ops = nlohmann::ordered_json::object();
    for (int o = 0; o < kOpCount; ++o) {
      if (b.ops[o] == a.ops[o] && b.errors[o] == a.errors[o]) continue;
      ops[OpName(static_cast<Op>(o))] = {{"ops", b.ops[o] - a.ops[o]},
                                         {"bytes", b.bytes[o] - a.bytes[o]},
                                         {"errors", b.errors[o] - a.errors[o]}};
    }
    n["ops"] = ops;
    nlohmann::ordered_json m = nlohmann::ordered_json::object();
    for (const auto& v : b.model) m[v.name] = v.value - ModelValue(a.model, v.name);
    n["model"] = m;
    nodes.push_back(n);
  }
  j["nodes"] = nodes;
  return j;
}

std::string CycleReport(int cycle, int cycles, const StackSnapshot& start,
                        const StackSnapshot& end) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "\tCycle %d of %d, per node (this cycle only):\n", cycle,
                cycles);
  out += line;
  for (size_t i = 0; i < end.nodes.size() && i < start.nodes.size(); ++i) {
    const auto& a = start.nodes[i];
    const auto& b = end.nodes[i];
    std::string ops;
    for (int o = 0; o < kOpCount; ++o) {
      const uint64_t n = b.ops[o] - a.ops[o];
      if (n == 0) continue;
      std::snprintf(line, sizeof line, "  %s %llu ops %.1f MiB", OpName(static_cast<Op>(o)),
                    static_cast<unsigned long long>(n),
                    static_cast<double>(b.bytes[o] - a.bytes[o]) / (1 << 20));
      ops += line;
    }
    if (ops.empty()) continue;
    std::string figures;
    for (const auto& v : b.model) {
      if (v.unit != kCount) continue;
      const double d = v.value - ModelValue(a.model, v.name);
      if (d == 0) continue;
      std::snprintf(line, sizeof line, "  %s %+.0f", v.name.c_str(), d);
      figures += line;
    }
    std::snprintf(line, sizeof line, "\t  %-12s", b.name.c_str());
    out += line + ops + "\n";
    if (!figures.empty()) out += "\t  " + std::string(12, ' ') + figures + "\n";
  }
  return out;
}

}  // namespace storlab::cli
