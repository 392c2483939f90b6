#include "workloads/demo_plot.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace storlab::demo {

std::string PlotData(const std::vector<CellResult>& results) {
  std::string s = "# cell published_mbps simulated_mbps\n";
  char buf[128];
  for (const auto& r : results) {
    std::snprintf(buf, sizeof buf, "\"%c %s\" %.3f %s\n", r.cell.test, r.cell.option.c_str(),
                  r.cell.published_mbps,
                  r.status.ok() ? std::to_string(r.simulated_mbps).c_str() : "NaN");
    s += buf;
  }
  return s;
}

std::string PlotScript(const std::string& data_file, const std::string& png,
                       const std::string& svg) {
  std::string body =
      "set title 'Seed table: published vs storlab sim (fio, 60 s, end\\_fsync=1)'\n"
      "set ylabel 'MB/s (log scale)'\n"
      "set logscale y\n"
      "set style data histograms\n"
      "set style histogram clustered gap 1\n"
      "set style fill solid 0.8 border -1\n"
      "set boxwidth 0.9\n"
      "set xtics rotate by -45\n"
      "set grid ytics\n"
      "set key top left\n"
      "plot '" +
      data_file + "' using 2:xtic(1) title 'published', '' using 3 title 'simulated'\n";
  return "set terminal pngcairo size 1000,560\nset output '" + png + "'\n" + body +
         "set terminal svg size 1000,560\nset output '" + svg + "'\nreplot\n";
}

Status WritePlot(const std::string& dir, const std::vector<CellResult>& results) {
  std::string mk = "mkdir -p '" + dir + "'";
  if (std::system(mk.c_str()) != 0) return Status::IoError("cannot create " + dir);
  std::string dat = dir + "/seed-table.dat", gp = dir + "/seed-table.gp";
  {
    std::ofstream d(dat), g(gp);
    if (!d || !g) return Status::IoError("cannot write into " + dir);
    d << PlotData(results);
    g << PlotScript(dat, dir + "/seed-table.png", dir + "/seed-table.svg");
  }
  std::string cmd = "gnuplot '" + gp + "'";
  int rc = std::system(cmd.c_str());
  if (rc != 0) return Status::IoError("gnuplot failed on " + gp + " (is gnuplot installed?)");
  return Status();
}

}  // namespace storlab::demo
