#include "workloads/demo_plot.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "sim/quoted.h"

extern char** environ;

namespace storlab::demo {
namespace {

// The files of a chart, inside its directory. The script names them
// relative to it, and gnuplot runs there: the directory's name (the user's)
// never appears in a command line or a script.
constexpr char kData[] = "seed-table.dat";
constexpr char kScript[] = "seed-table.gp";
constexpr char kPng[] = "seed-table.png";
constexpr char kSvg[] = "seed-table.svg";

// The first executable `name` on $PATH, or "".
std::string FindInPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  for (;;) {
    size_t colon = p.find(':', start);
    std::string dir = p.substr(start, colon == std::string::npos ? colon : colon - start);
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string::npos) return "";
    start = colon + 1;
  }
}

// Runs `argv` in `dir` with no shell, stdin from /dev/null; its exit
// status, or -1 if it could not start.
int Spawn(const std::string& dir, const std::vector<std::string>& argv) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  int err = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

std::string GnuplotString(std::string_view s) {
  // A single-quoted gnuplot string has no escapes but '' for a quote.
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

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
      "plot " +
      GnuplotString(data_file) +
      " using 2:xtic(1) title 'published', '' using 3 title 'simulated'\n";
  return "set terminal pngcairo size 1000,560\nset output " + GnuplotString(png) + "\n" + body +
         "set terminal svg size 1000,560\nset output " + GnuplotString(svg) + "\nreplot\n";
}

Status PreparePlotDir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir, ec)) {
    return Status::IoError("cannot create the directory " + Quoted(dir, 256) +
                           (ec ? ": " + ec.message() : ""));
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    return Status::IoError("cannot write into " + Quoted(dir, 256) + ": " + std::strerror(errno));
  }
  if (FindInPath("gnuplot").empty()) {
    return Status::NotFound("gnuplot is not installed (apt-get install gnuplot-nox)");
  }
  return Status();
}

Status WritePlot(const std::string& dir, const std::vector<CellResult>& results) {
  RETURN_IF_ERROR(PreparePlotDir(dir));
  const std::filesystem::path d(dir);
  {
    std::ofstream data(d / kData), script(d / kScript);
    data << PlotData(results);
    script << PlotScript(kData, kPng, kSvg);
    if (!data || !script) return Status::IoError("cannot write into " + Quoted(dir, 256));
  }
  const std::string gnuplot = FindInPath("gnuplot");
  if (Spawn(dir, {gnuplot, kScript}) != 0) {
    return Status::IoError("gnuplot failed on " + Quoted((d / kScript).string(), 256));
  }
  return Status();
}

}  // namespace storlab::demo
