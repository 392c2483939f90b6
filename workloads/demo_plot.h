// The seed table as a bar chart: published and simulated MB/s per cell, on
// a log scale, drawn by gnuplot as PNG and SVG. Thread-compatible.
#ifndef STORLAB_WORKLOADS_DEMO_PLOT_H_
#define STORLAB_WORKLOADS_DEMO_PLOT_H_

#include <string>
#include <string_view>
#include <vector>

#include "sim/status.h"
#include "workloads/demo.h"

namespace storlab::demo {

// The gnuplot data and script for `results`, drawing into `png` and `svg`
// (file names quoted for gnuplot).
std::string PlotData(const std::vector<CellResult>& results);
std::string PlotScript(const std::string& data_file, const std::string& png,
                       const std::string& svg);
// `s` as a gnuplot string literal: 'it''s'.
std::string GnuplotString(std::string_view s);
// Creates DIR (and its parents) and checks that it is writable and that
// gnuplot is installed: what WritePlot needs, checked before a long run.
Status PreparePlotDir(const std::string& dir);
// Writes DIR/seed-table.{dat,gp} and runs gnuplot in DIR for
// seed-table.{png,svg}. No shell: the directory is made with
// std::filesystem, gnuplot started with posix_spawn and an argument vector,
// and the script names its files relative to DIR, so no part of DIR's name
// is ever parsed as a command.
Status WritePlot(const std::string& dir, const std::vector<CellResult>& results);

}  // namespace storlab::demo

#endif  // STORLAB_WORKLOADS_DEMO_PLOT_H_
