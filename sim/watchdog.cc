#include "sim/watchdog.h"

#include <cstdio>

#include "sim/quoted.h"

namespace storlab {
namespace {

std::string Seconds(Nanos t) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6f s", t.seconds());
  return buf;
}

// True when `n` or a node below it has a request in flight.
bool Busy(const Node& n) {
  if (n.in_flight() > 0) return true;
  for (const Node* c : n.children()) {
    if (Busy(*c)) return true;
  }
  return false;
}

}  // namespace

Watchdog::Watchdog(const Stack& stack, Limits limits)
    : stack_(stack),
      limits_(limits),
      next_check_(limits.check_every),
      last_time_(stack.engine().now()),
      last_completion_(stack.engine().now()) {
  completions_ = Completions();
}

uint64_t Watchdog::Completions() const {
  uint64_t n = 0;
  for (const auto& node : stack_.nodes()) {
    for (int op = 0; op < kOpCount; ++op) n += node->stats().op(static_cast<Op>(op)).ops;
  }
  return n;
}

std::string Watchdog::StuckNode() const {
  const Node* stuck = nullptr;
  Nanos oldest;
  for (const auto& node : stack_.nodes()) {
    if (node->in_flight() == 0) continue;
    bool below = false;
    for (const Node* c : node->children()) below |= Busy(*c);
    if (below) continue;
    const Nanos t = node->oldest_in_flight();
    if (!stuck || t < oldest) {
      stuck = node.get();
      oldest = t;
    }
  }
  if (!stuck) return "";
  return "node " + Quoted(stuck->name()) + " (" + std::string(stuck->type()) + ") holds " +
         std::to_string(stuck->in_flight()) + " request" + (stuck->in_flight() == 1 ? "" : "s") +
         ", the oldest in flight since " + Seconds(oldest);
}

Status Watchdog::Check(const Engine& engine) {
  next_check_ = events_ + limits_.check_every;
  const Nanos now = engine.now();
  if (now != last_time_) {
    last_time_ = now;
    events_at_last_time_ = events_;
  } else if (events_ - events_at_last_time_ >= limits_.events_at_one_instant) {
    std::string where = StuckNode();
    return Status::Aborted("simulated time stopped advancing at " + Seconds(now) + ": " +
                           std::to_string(events_ - events_at_last_time_) +
                           " events ran without the clock moving" +
                           (where.empty() ? "" : "; " + where));
  }
  const uint64_t done = Completions();
  if (done != completions_) {
    completions_ = done;
    last_completion_ = now;
  } else if (now - last_completion_ >= limits_.without_completion) {
    std::string where = StuckNode();
    if (!where.empty()) {
      return Status::Aborted("the run stopped making progress: no request completed from " +
                             Seconds(last_completion_) + " to " + Seconds(now) +
                             " of simulated time; " + where);
    }
  }
  return Status();
}

Status Watchdog::Deadlock(const Engine& engine) const {
  std::string where = StuckNode();
  return Status::Aborted("the run deadlocked at " + Seconds(engine.now()) +
                         ": no event is pending while the workload still waits" +
                         (where.empty() ? "" : "; " + where));
}

}  // namespace storlab
