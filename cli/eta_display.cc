// `storlab sim --eta` (see eta_display.h).
#include "cli/eta_display.h"

#include <unistd.h>

#include <cstdio>

namespace storlab::cli {

EtaDisplay::EtaDisplay(fio::FioRun& run, Nanos t0, const ProgressOptions& options) {
  using Eta = ProgressOptions::Eta;
  // eta.c calc_thread_status(): never; auto only on a terminal.
  if (options.eta == Eta::kNever) return;
  if (options.eta == Eta::kAuto && !isatty(STDERR_FILENO)) return;
  const Nanos genesis = run.layout_start();
  const Nanos every = options.interval;
  // The helper thread's ticks from genesis; those during the layout
  // (before the jobs start) are not taken.
  const Nanos first = genesis + every * ((t0 - genesis).count() / every.count() + 1);
  line_ = std::make_unique<fio::EtaLine>(run, genesis, options.newline_every);
  run.SetEtaTicks(first, every, [this](Nanos t) { Show(t); });
}

EtaDisplay::~EtaDisplay() {
  if (shown_) std::fputs("\n", stderr);
}

void EtaDisplay::Show(Nanos t) {
  const std::string s = line_->At(t);
  if (s.empty()) return;
  shown_ = true;
  std::fputs(s.c_str(), stderr);
  std::fflush(stderr);
}

void EtaDisplay::Note(const std::string& line) {
  if (shown_) std::fputs("\n", stderr);
  shown_ = false;
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

}  // namespace storlab::cli
