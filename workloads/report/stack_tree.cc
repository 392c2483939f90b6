#include "workloads/report/stack_tree.h"

#include <cstdio>
#include <map>
#include <set>

#include "sim/node.h"
#include "workloads/report/svg_chart.h"
#include "workloads/text_format.h"

namespace storlab::report {
namespace {

std::string Bytes(double b) {
  auto [div, unit] = ByteUnit(b);
  return Fmt(div == 1 ? "%.0f " : "%.2f ", b / div) + unit;
}

// A column's change from the first sample to the last.
double Growth(const RunSampler& s, const std::string& node, const std::string& figure) {
  const RunSampler::Column* c = s.Find(node, figure);
  if (!c || c->values.size() < 2) return 0;
  return c->values.back() - c->values.front();
}

// The mean of a column's samples.
double MeanOf(const RunSampler& s, const std::string& node, const std::string& figure) {
  const RunSampler::Column* c = s.Find(node, figure);
  if (!c || c->values.empty()) return 0;
  double sum = 0;
  for (double v : c->values) sum += v;
  return sum / static_cast<double>(c->values.size());
}

// Hit rates from the model's own counters: PREFIX_hits / PREFIX_misses,
// and the page cache's read_hit_bytes / read_miss_bytes.
std::string HitRates(const Node& n) {
  StatList list;
  n.AppendStats(list);
  std::map<std::string, double> m;
  for (const auto& v : list) m[v.name] = v.value;
  std::string s;
  for (const char* p : {"read", "write", "arc", "map_cache", "server_read", "server_write"}) {
    auto h = m.find(std::string(p) + "_hits"), x = m.find(std::string(p) + "_misses");
    if (h == m.end() || x == m.end() || h->second + x->second <= 0) continue;
    s += ", " + std::string(p) + " hits " +
         Fmt("%.1f %%", 100 * h->second / (h->second + x->second));
  }
  auto hb = m.find("read_hit_bytes"), mb = m.find("read_miss_bytes");
  if (hb != m.end() && mb != m.end() && hb->second + mb->second > 0) {
    s += ", read hits " + Fmt("%.1f %% of bytes", 100 * hb->second / (hb->second + mb->second));
  }
  return s;
}

std::string Box(const Node& n, const RunSampler& s) {
  const NodeStats& st = n.stats();
  const RunSampler::Counts c = s.Since(n);
  const double span = s.times().empty() ? 0 : static_cast<double>(s.times().back().count());
  std::string b = "<div class=\"node\"><b>" + HtmlEscape(n.name()) + "</b> <span>(" +
                  HtmlEscape(std::string(n.type())) + ")</span><br><span>";
  b += "reads " + Fmt("%.0f", static_cast<double>(c.reads)) + " (" +
       Bytes(static_cast<double>(c.read_bytes)) + "), writes " +
       Fmt("%.0f", static_cast<double>(c.writes)) + " (" +
       Bytes(static_cast<double>(c.write_bytes)) + "), flushes " +
       Fmt("%.0f", static_cast<double>(c.flushes));
  if (span > 0) {
    b += "<br>busy " + Fmt("%.1f %%", 100 * Growth(s, n.name(), "busy") / span) +
         ", queue depth mean " + Fmt("%.2f", MeanOf(s, n.name(), "depth")) + ", max " +
         std::to_string(st.max_in_flight());
  }
  b += HitRates(n);
  for (const char* g : {"dirty_bytes", "server_dirty_bytes", "buffered_bytes", "slc_used_bytes"}) {
    const double peak = s.Peak(n.name(), g);
    if (peak > 0) b += ", " + std::string(g) + " peak " + Bytes(peak);
  }
  return b + "</span></div>";
}

void Subtree(const Node& n, const RunSampler& s, std::string& out) {
  out += "<li>" + Box(n, s);
  const auto kids = n.children();
  if (!kids.empty()) {
    out += "<ul>";
    for (const Node* c : kids) Subtree(*c, s, out);
    out += "</ul>";
  }
  out += "</li>\n";
}

}  // namespace

std::string StackTree(const Stack& stack, const RunSampler& sampler) {
  std::set<const Node*> children;
  for (const auto& n : stack.nodes()) {
    for (const Node* c : n->children()) children.insert(c);
  }
  std::string out = "<ul class=\"tree\">\n";
  for (const auto& n : stack.nodes()) {
    if (!children.count(n.get())) Subtree(*n, sampler, out);
  }
  return out + "</ul>\n";
}

}  // namespace storlab::report
