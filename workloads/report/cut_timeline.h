// CutTimeline: the report's picture of a run with power cuts (storlab sim
// --report with --power-cut-at / --power-cuts): from the run's trace
// (sim/trace.h, read back with sim/trace_summary.h WriteLives), the client
// writes before the first cut the trace covers, one row each, from submit
// (thin) and acknowledge to durable (a bar), the cut as a vertical line,
// and the writes it lost — acknowledged, not yet durable — in another
// colour; then, for every cut the trace covers, how many acknowledged
// writes were durable and how many were lost or in flight. One inline SVG
// and a short list, small enough for a page. Thread-compatible.
#ifndef STORLAB_WORKLOADS_REPORT_CUT_TIMELINE_H_
#define STORLAB_WORKLOADS_REPORT_CUT_TIMELINE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "sim/time.h"
#include "sim/trace_read.h"

namespace storlab::report {

// At most this many writes are drawn (the last ones submitted before the
// first cut).
inline constexpr size_t kTimelineWrites = 40;

// `cuts`: each cut's time from the jobs' start (the trace's origin),
// sorted. HTML (an <svg class="cuts"> and a list), "" when the trace holds
// no client write.
std::string CutTimeline(const ParsedTrace& trace, const std::vector<Nanos>& cuts);

}  // namespace storlab::report

#endif  // STORLAB_WORKLOADS_REPORT_CUT_TIMELINE_H_
