// The report's power-cut timeline (see cut_timeline.h).
#include "workloads/report/cut_timeline.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "sim/trace_summary.h"
#include "workloads/report/svg_chart.h"
#include "workloads/report/svg_text.h"
#include "workloads/text_format.h"

namespace storlab::report {
namespace {

constexpr double kCutWidth = 760, kCutLeft = 90, kCutRight = 20, kCutTop = 34, kCutRow = 9;
constexpr const char* kDurable = "#0072B2";  // the charts' first colour
constexpr const char* kLost = "#D55E00";
constexpr const char* kInFlight = "#999999";

std::string Rect(const char* cls, double x1, double x2, double y, double h, const char* fill) {
  return "<rect class=\"" + std::string(cls) + "\" x=\"" + Num(x1) + "\" y=\"" + Num(y) +
         "\" width=\"" + Num(std::max(1.5, x2 - x1)) + "\" height=\"" + Num(h) + "\" fill=\"" +
         fill + "\"/>";
}

// What a cut at `cut_ns` did to a write.
enum class Fate { kDurable, kLost, kInFlight, kAfter };
Fate FateAt(const WriteLife& w, int64_t cut_ns) {
  if (w.submit_ns >= cut_ns) return Fate::kAfter;
  if (w.ack_ns < 0 || w.ack_ns > cut_ns) return Fate::kInFlight;
  if (w.durable_ns >= 0 && w.durable_ns <= cut_ns) return Fate::kDurable;
  return Fate::kLost;
}

}  // namespace

std::string CutTimeline(const ParsedTrace& trace, const std::vector<Nanos>& cuts) {
  std::vector<WriteLife> lives = WriteLives(trace);
  if (lives.empty()) return "";
  const int64_t traced_to = trace.events.empty() ? 0 : trace.events.back().t_ns;
  // The cuts the trace covers (a cut-short trace ends before later ones).
  std::vector<int64_t> covered;
  for (Nanos c : cuts) {
    if (!trace.truncated || c.count() <= traced_to) covered.push_back(c.count());
  }
  // The rows: the last writes submitted before the first cut covered.
  const int64_t cut0 = covered.empty() ? -1 : covered.front();
  std::vector<const WriteLife*> rows;
  for (const auto& w : lives) {
    if (cut0 < 0 || w.submit_ns < cut0) rows.push_back(&w);
  }
  if (cut0 >= 0 && rows.size() > kTimelineWrites) {
    rows.erase(rows.begin(), rows.end() - kTimelineWrites);
  } else if (rows.size() > kTimelineWrites) {
    rows.resize(kTimelineWrites);
  }
  if (rows.empty()) return "";
  // The time axis: the rows' submits to a little past the cut (what the
  // run did after it is not this picture), or to their last durable.
  int64_t x0 = rows.front()->submit_ns, x1 = 0;
  for (const auto* w : rows) {
    x0 = std::min(x0, w->submit_ns);
    x1 = std::max({x1, w->ack_ns, w->durable_ns});
  }
  if (cut0 >= 0) x1 = cut0 + std::max<int64_t>(1, (cut0 - x0) / 8);
  if (x1 <= x0) x1 = x0 + 1;
  const double plot_w = kCutWidth - kCutLeft - kCutRight;
  auto px = [&](int64_t t) {
    return kCutLeft + plot_w * static_cast<double>(t - x0) / static_cast<double>(x1 - x0);
  };
  const double height = kCutTop + kCutRow * static_cast<double>(rows.size()) + 44;
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"cuts\" width=\"" +
                  Num(kCutWidth) + "\" height=\"" + Num(height) + "\" viewBox=\"0 0 " +
                  Num(kCutWidth) + " " + Num(height) + "\">\n";
  s += Text(kCutLeft, 16,
            cut0 >= 0 ? "Writes before the first power cut: acknowledge → durable"
                      : "Writes: acknowledge → durable",
            "start", "title");
  const int64_t end = cut0 >= 0 ? cut0 : x1;
  for (size_t i = 0; i < rows.size(); ++i) {
    const WriteLife& w = *rows[i];
    const double y = kCutTop + kCutRow * static_cast<double>(i);
    s += Text(kCutLeft - 6, y + 7, Fmt("%.0f KiB", static_cast<double>(w.offset) / 1024), "end",
              "small");
    const Fate f = cut0 >= 0 ? FateAt(w, cut0) : Fate::kDurable;
    const int64_t acked = w.ack_ns >= 0 ? std::min(w.ack_ns, end) : end;  // in flight: to the cut
    s += Rect("wait", px(w.submit_ns), px(acked), y + 3, 1.5, kInFlight);
    if (f == Fate::kInFlight) continue;
    if (f == Fate::kLost) {
      s += Rect("lost", px(w.ack_ns), px(cut0), y, kCutRow - 2, kLost);
    } else {
      const int64_t to = w.durable_ns >= 0 ? std::min(w.durable_ns, x1) : x1;
      s += Rect("durable", px(w.ack_ns), px(to), y, kCutRow - 2, kDurable);
    }
  }
  const double bottom = kCutTop + kCutRow * static_cast<double>(rows.size());
  if (cut0 >= 0) {
    s += "<line class=\"cut\" x1=\"" + Num(px(cut0)) + "\" y1=\"" + Num(kCutTop - 6) + "\" x2=\"" +
         Num(px(cut0)) + "\" y2=\"" + Num(bottom + 4) + "\" stroke=\"" + kLost +
         "\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/>";
    s += Text(px(cut0), kCutTop - 9, Fmt("power cut at %.6f s", static_cast<double>(cut0) / 1e9),
              px(cut0) > kCutWidth - 160 ? "end" : "start", "spanlabel");
  }
  s += Text(kCutLeft, bottom + 18,
            Fmt("%.6f s", static_cast<double>(x0) / 1e9) + " … " +
                Fmt("%.6f s of simulated time from the jobs' start", static_cast<double>(x1) / 1e9),
            "start", "unit");
  const double ly = bottom + 34;
  s += Rect("key", kCutLeft, kCutLeft + 18, ly - 7, 7, kDurable) +
       Text(kCutLeft + 22, ly, "acknowledged → durable", "start", "legend");
  s += Rect("key", kCutLeft + 190, kCutLeft + 208, ly - 7, 7, kLost) +
       Text(kCutLeft + 212, ly, "acknowledged, lost at the cut", "start", "legend");
  s += Rect("key", kCutLeft + 410, kCutLeft + 428, ly - 4, 1.5, kInFlight) +
       Text(kCutLeft + 432, ly, "submitted, not yet acknowledged", "start", "legend");
  s += "</svg>\n";
  // Every cut the trace covers: what the client's writes had become.
  s += "<ul class=\"cuts\">\n";
  for (size_t c = 0; c < covered.size(); ++c) {
    uint64_t durable = 0, lost = 0, in_flight = 0, lost_bytes = 0;
    for (const auto& w : lives) {
      switch (FateAt(w, covered[c])) {
        case Fate::kDurable:
          ++durable;
          break;
        case Fate::kLost:
          ++lost;
          lost_bytes += w.length;
          break;
        case Fate::kInFlight:
          ++in_flight;
          break;
        case Fate::kAfter:
          break;
      }
    }
    s += "<li>cut " + std::to_string(c + 1) + " at " +
         Fmt("%.6f s", static_cast<double>(covered[c]) / 1e9) + ": " + std::to_string(durable) +
         " acknowledged writes durable, <b>" + std::to_string(lost) +
         " acknowledged but not durable: lost</b> (" + Fmt("%.0f KiB", lost_bytes / 1024.0) +
         "), " + std::to_string(in_flight) + " in flight</li>\n";
  }
  if (covered.size() < cuts.size()) {
    s += "<li>" + std::to_string(cuts.size() - covered.size()) +
         " later cuts are past the end of the trace (" + HtmlEscape(trace.truncated_note) +
         ")</li>\n";
  }
  return s + "</ul>\n";
}

}  // namespace storlab::report
