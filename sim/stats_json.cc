#include "sim/stats_json.h"

#include <cstdio>
#include <string>

namespace storlab {
namespace {

nlohmann::ordered_json OpJson(const OpStats& s) {
  nlohmann::ordered_json j;
  j["ops"] = s.ops;
  j["bytes"] = s.bytes;
  j["errors"] = s.errors;
  j["latency_ns"] = HistogramJson(s.latency_ns);
  return j;
}

}  // namespace

nlohmann::ordered_json HistogramJson(const LatencyHistogram& h) {
  nlohmann::ordered_json lat;
  lat["min"] = h.min();
  lat["max"] = h.max();
  lat["mean"] = h.mean();
  lat["stddev"] = h.stddev();
  const auto& list = LatencyHistogram::DefaultPercentiles();
  auto values = h.Percentiles(list);
  nlohmann::ordered_json pct;
  for (size_t i = 0; i < list.size(); ++i) {
    char key[32];
    std::snprintf(key, sizeof key, "%f", list[i]);  // fio's "99.900000" keys
    pct[key] = values[i];
  }
  lat["percentile"] = pct;
  return lat;
}

nlohmann::ordered_json NodeStatsJson(const Node& node) {
  nlohmann::ordered_json j;
  j["name"] = node.name();
  j["type"] = std::string(node.type());
  nlohmann::ordered_json ops;
  for (int o = 0; o < kOpCount; ++o) {
    const OpStats& s = node.stats().op(static_cast<Op>(o));
    if (s.ops == 0 && s.errors == 0) continue;
    ops[OpName(static_cast<Op>(o))] = OpJson(s);
  }
  j["ops"] = ops;
  j["queue_depth"] = {{"mean", node.stats().MeanQueueDepth(node.engine().now())},
                      {"max", node.stats().max_in_flight()},
                      {"now", node.stats().in_flight()}};
  StatList model;
  node.AppendStats(model);
  nlohmann::ordered_json m = nlohmann::ordered_json::object();
  for (const auto& v : model) m[v.name] = v.value;
  j["model"] = m;
  nlohmann::ordered_json series = nlohmann::ordered_json::object();
  for (const TimeSeries* ts : node.Series()) {
    nlohmann::ordered_json pts = nlohmann::ordered_json::array();
    for (const auto& [t, v] : ts->points()) pts.push_back({t.count(), v});
    series[ts->name()] = pts;
  }
  j["series"] = series;
  return j;
}

nlohmann::ordered_json StackStatsJson(const Stack& stack) {
  nlohmann::ordered_json j;
  j["stack"] = stack.name();
  j["time_ns"] = stack.engine().now().count();
  nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
  for (const auto& n : stack.nodes()) nodes.push_back(NodeStatsJson(*n));
  j["nodes"] = nodes;
  return j;
}

}  // namespace storlab
