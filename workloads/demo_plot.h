// The seed table as a bar chart: published and simulated MB/s per cell, on
// a log scale, drawn by gnuplot as PNG and SVG. Thread-compatible.
#ifndef STORLAB_WORKLOADS_DEMO_PLOT_H_
#define STORLAB_WORKLOADS_DEMO_PLOT_H_

#include <string>
#include <vector>

#include "sim/status.h"
#include "workloads/demo.h"

namespace storlab::demo {

// The gnuplot data and script for `results`, drawing into `png` and `svg`.
std::string PlotData(const std::vector<CellResult>& results);
std::string PlotScript(const std::string& data_file, const std::string& png,
                       const std::string& svg);
// Writes DIR/seed-table.{dat,gp} and runs gnuplot for DIR/seed-table.{png,svg}.
Status WritePlot(const std::string& dir, const std::vector<CellResult>& results);

}  // namespace storlab::demo

#endif  // STORLAB_WORKLOADS_DEMO_PLOT_H_
