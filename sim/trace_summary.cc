#include "sim/trace_summary.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <utility>

namespace storlab {
namespace {

using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;  // [begin, end)

// Removes [b, e) from `r`.
void Subtract(Ranges* r, uint64_t b, uint64_t e) {
  Ranges out;
  for (auto [x, y] : *r) {
    if (e <= x || b >= y) {
      out.emplace_back(x, y);
      continue;
    }
    if (x < b) out.emplace_back(x, b);
    if (e < y) out.emplace_back(e, y);
  }
  *r = std::move(out);
}

bool Overlaps(const TraceEvent& e, uint64_t b, uint64_t end) {
  return e.offset < end && b < e.offset + e.length;
}

bool IsUnder(const ParsedTrace& t, int node, int top) {
  for (int n = node; n >= 0; n = t.nodes[static_cast<size_t>(n)].parent) {
    if (n == top) return true;
  }
  return false;
}

int Depth(const ParsedTrace& t, int node) {
  int d = 0;
  for (int n = t.nodes[static_cast<size_t>(node)].parent; n >= 0;
       n = t.nodes[static_cast<size_t>(n)].parent) {
    ++d;
  }
  return d;
}

// The first event from `from` on whose `match`ing events cover [b, e).
template <typename F>
std::optional<size_t> Covered(const ParsedTrace& t, size_t from, uint64_t b, uint64_t e, F match) {
  Ranges left = {{b, e}};
  for (size_t i = from; i < t.events.size(); ++i) {
    const TraceEvent& ev = t.events[i];
    if (!match(ev) || !Overlaps(ev, b, e)) continue;
    Subtract(&left, ev.offset, ev.offset + ev.length);
    if (left.empty()) return i;
  }
  return std::nullopt;
}

std::string Ms(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1e6);
  return buf;
}

// "flushes: ..." — the jobs' own FLUSHes (fsync), as the writes are found.
std::string ClientFlushes(const ParsedTrace& t) {
  std::vector<int> flushes_in(t.nodes.size(), 0);
  std::map<uint64_t, std::pair<int, int64_t>> open;  // id -> node, submit time
  std::map<uint64_t, bool> client;
  std::string list;
  size_t n = 0;
  for (const TraceEvent& e : t.events) {
    if (e.op != "flush") continue;
    const auto node = static_cast<size_t>(e.node);
    if (e.kind == TraceEventKind::kSubmit) {
      bool top = !e.background;
      for (int p = t.nodes[node].parent; top && p >= 0;
           p = t.nodes[static_cast<size_t>(p)].parent) {
        top = flushes_in[static_cast<size_t>(p)] == 0;
      }
      ++flushes_in[node];
      open[e.id] = {e.node, e.t_ns};
      client[e.id] = top;
    } else if (e.kind == TraceEventKind::kComplete) {
      auto it = open.find(e.id);
      if (it == open.end()) continue;
      --flushes_in[node];
      if (client[e.id] && n++ < 20) {
        list += (list.empty() ? "" : ", ") + Ms(it->second.second) + "-" + Ms(e.t_ns);
      }
      open.erase(it);
    }
  }
  if (n == 0) return "flushes (fsync) by the jobs: none\n";
  return "flushes (fsync) by the jobs: " + std::to_string(n) + " (" + list +
         (n > 20 ? ", ..." : "") + ")\n";
}

}  // namespace

std::vector<WriteLife> WriteLives(const ParsedTrace& t) {
  // Nodes whose models trace their volatile memory.
  std::vector<bool> holder(t.nodes.size(), false);
  for (size_t n = 0; n < t.nodes.size(); ++n) holder[n] = t.nodes[n].traced;
  std::vector<WriteLife> lives;
  std::map<uint64_t, size_t> life_of;             // request id -> index in lives
  std::map<uint64_t, size_t> submit_of;           // request id -> its submit event
  std::vector<int> writes_in(t.nodes.size(), 0);  // writes in service per node
  std::map<uint64_t, int> write_node;
  for (size_t i = 0; i < t.events.size(); ++i) {
    const TraceEvent& e = t.events[i];
    if (e.kind == TraceEventKind::kSubmit) {
      submit_of[e.id] = i;
      if (!e.is_write()) continue;
      bool client = !e.background;
      for (int p = t.nodes[static_cast<size_t>(e.node)].parent; client && p >= 0;
           p = t.nodes[static_cast<size_t>(p)].parent) {
        client = writes_in[static_cast<size_t>(p)] == 0;
      }
      ++writes_in[static_cast<size_t>(e.node)];
      write_node[e.id] = e.node;
      if (!client) continue;
      life_of[e.id] = lives.size();
      WriteLife& w = lives.emplace_back();
      w.id = e.id;
      w.node = e.node;
      w.offset = e.offset;
      w.length = e.length;
      w.fua = e.fua;
      w.submit_ns = e.t_ns;
      w.submit_event = i;
    } else if (e.kind == TraceEventKind::kComplete) {
      if (auto w = write_node.find(e.id); w != write_node.end()) {
        --writes_in[static_cast<size_t>(w->second)];
        write_node.erase(w);
      }
      auto l = life_of.find(e.id);
      if (l == life_of.end()) continue;
      WriteLife& w = lives[l->second];
      w.ack_ns = e.t_ns;
      w.ack_event = i;
      w.ack_ok = e.ok;
    }
  }
  for (WriteLife& w : lives) {
    const size_t from = w.submit_event;
    const uint64_t b = w.offset, end = w.offset + w.length;
    if (auto d = Covered(t, from, b, end, [&](const TraceEvent& ev) {
          return ev.kind == TraceEventKind::kDurable && IsUnder(t, ev.node, w.node);
        })) {
      w.durable_event = *d;
      w.durable_ns = t.events[*d].t_ns;
    }
    for (size_t n = 0; n < t.nodes.size(); ++n) {
      if (!holder[n] || !IsUnder(t, static_cast<int>(n), w.node)) continue;
      // The first write into n carrying these bytes, submitted after w.
      for (size_t i = from; i < t.events.size(); ++i) {
        const TraceEvent& ev = t.events[i];
        if (ev.kind != TraceEventKind::kComplete || ev.node != static_cast<int>(n) ||
            !ev.is_write() || !ev.ok || !Overlaps(ev, b, end) || submit_of[ev.id] < from) {
          continue;
        }
        const uint64_t hb = std::max(b, ev.offset), he = std::min(end, ev.offset + ev.length);
        WriteLife::Hold h{static_cast<int>(n), ev.t_ns, -1, i, 0};
        if (auto out = Covered(t, i, hb, he, [&](const TraceEvent& x) {
              return (x.kind == TraceEventKind::kDestaged || x.kind == TraceEventKind::kDurable) &&
                     x.node == static_cast<int>(n);
            })) {
          h.to_event = *out;
          h.to_ns = t.events[*out].t_ns;
        }
        if (h.to_ns != h.from_ns) w.held.push_back(h);
        break;
      }
    }
    std::sort(w.held.begin(), w.held.end(),
              [&](const auto& x, const auto& y) { return Depth(t, x.node) < Depth(t, y.node); });
  }
  return lives;
}

std::string SummarizeTrace(const ParsedTrace& t, size_t max_writes) {
  const std::vector<WriteLife> lives = WriteLives(t);
  auto name = [&](int n) { return t.nodes[static_cast<size_t>(n)].name; };
  std::string s = "trace " + t.file + ": " + std::to_string(t.events.size()) + " events, " +
                  std::to_string(lives.size()) + " client write" + (lives.size() == 1 ? "" : "s") +
                  " (times in ms from the jobs' start)\n";
  if (t.truncated) s += "note: the trace was cut short (" + t.truncated_note + ")\n";
  char buf[512];
  std::snprintf(buf, sizeof buf, "%4s %-16s %12s %8s %10s %10s %10s %12s  %s\n", "#", "node",
                "offset", "length", "submit", "ack", "durable", "ack->durable",
                "held volatile by (from-to)");
  s += buf;
  for (size_t k = 0; k < lives.size() && k < max_writes; ++k) {
    const WriteLife& w = lives[k];
    std::string held;
    for (const auto& h : w.held) {
      held += (held.empty() ? "" : ", ") + name(h.node) + " " + Ms(h.from_ns) + "-" +
              (h.to_ns < 0 ? "end" : Ms(h.to_ns));
    }
    if (held.empty()) held = "-";
    std::string delta = "-";
    if (w.ack_ns >= 0 && w.durable_ns >= 0) {
      delta = w.durable_ns <= w.ack_ns ? "before ack" : Ms(w.durable_ns - w.ack_ns);
    } else if (w.ack_ns >= 0) {
      delta = "after end";
    }
    std::snprintf(buf, sizeof buf, "%4zu %-16s %12llu %8llu %10s %10s %10s %12s  %s\n", k + 1,
                  name(w.node).c_str(), static_cast<unsigned long long>(w.offset),
                  static_cast<unsigned long long>(w.length), Ms(w.submit_ns).c_str(),
                  w.ack_ns < 0 ? "-" : (w.ack_ok ? Ms(w.ack_ns) : "error").c_str(),
                  w.durable_ns < 0 ? "-" : Ms(w.durable_ns).c_str(), delta.c_str(), held.c_str());
    s += buf;
  }
  if (lives.size() > max_writes) {
    s += "... and " + std::to_string(lives.size() - max_writes) + " more writes\n";
  }
  s += ClientFlushes(t);
  for (size_t c = 0; c < t.events.size(); ++c) {
    if (t.events[c].kind != TraceEventKind::kPowerCut) continue;
    std::string survived, lost, in_flight;
    size_t n_survived = 0, n_lost = 0, n_in_flight = 0;
    for (size_t k = 0; k < lives.size(); ++k) {
      const WriteLife& w = lives[k];
      const std::string id = "#" + std::to_string(k + 1);
      if (w.ack_ns < 0 || w.ack_event > c) {
        if (w.submit_event > c) continue;  // after the cut: the run went on
        in_flight += " " + id;
        ++n_in_flight;
      } else if (w.durable_ns >= 0 && w.durable_event < c) {
        survived += " " + id;
        ++n_survived;
      } else {
        std::string by;
        for (const auto& h : w.held) {
          if (h.from_event < c && (h.to_ns < 0 || h.to_event > c)) {
            by += (by.empty() ? "" : ",") + name(h.node);
          }
        }
        lost += " " + id + (by.empty() ? "" : " (in " + by + ")");
        ++n_lost;
      }
    }
    s += "\npower cut at " + Ms(t.events[c].t_ns) + " ms (line " +
         std::to_string(t.events[c].line) + "):\n";
    s += "  survived, durable before the cut: " + std::to_string(n_survived) + survived + "\n";
    s += "  lost, acknowledged but still volatile: " + std::to_string(n_lost) + lost + "\n";
    s += "  in flight, never acknowledged (no promise made): " + std::to_string(n_in_flight) +
         in_flight + "\n";
  }
  return s;
}

}  // namespace storlab
