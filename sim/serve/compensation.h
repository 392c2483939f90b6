// Compensator: what an export's own transport costs a request, so that the
// service can deduct it from the model's delay and a client sees the
// device's latency rather than device + transport.
//
// A request reaches the service some time after its client sent it, and
// its answer reaches the client some time after the service gave it back:
// a socket round trip through nbdkit, or the kernel's FUSE path. Inside the
// service it costs more: the hop to the engine's thread, the timer that
// wakes the driver for the completion, the hop back. The service backdates
// each request's arrival by the estimate of both (the real-time driver's
// Post(fn, backdate)), so the model completes it as if it had arrived when
// the client sent it. Where the model's delay is shorter than the
// transport, the deduction cannot make the answer arrive before the request
// did: the client then sees the transport's floor.
//
// Both estimates (mode auto) come from the traffic itself:
//   - the gap: when a connection with nothing outstanding sends a request,
//     the time since its previous answer was handed back is one round trip
//     outside the service (answer to client, client's turn-around, request
//     to server) — plus any think time of the client, so the estimate is a
//     low percentile of recent samples, per size class (the bytes the round
//     trip carried); a class without samples borrows the nearest smaller
//     class's;
//   - the overhead: for each request whose model completion came after its
//     arrival, the wall time it spent in the service beyond what the model
//     asked for; the median of recent samples. Before the first, the
//     start-up calibration of the service's own path (the stack bypassed).
// A connection that was idle has its own gap: that is deducted whole, up
// to a percentile of the recent round trips (`idle_quantile`; never more
// than twice their estimate, the bound below). The 20th (the estimate
// itself) leaves the round trip's spread (a vCPU woken from halt, the
// client's turn-around) in every QD1 request: the client's IOPS fall short
// while its median matches. The NBD plugin takes the 90th (docs/nbd.md,
// stop 56: nas-1gbe-raid5's 4K reads at QD1 0.93-0.95 -> 0.97-0.99 of the
// model's IOPS, its median within 2.5 %); the FUSE mount keeps the 20th,
// since a libaio submitter is still inside io_submit while the mount
// serves its request, so part of each gap lies outside the client's
// completion latency (the 90th there took sata-ssd's median to 0.90). It
// never uses more gap than the connection actually saw. And a gap is only
// a round trip if it is shorter than kPauseFactor times the transport's
// floor (the round trip of a socket pair on this machine,
// transport_probe.h, measured at start-up) or twice the round trip
// estimated so far, whichever is longer: a longer one is
// the client's pause (fio's thinktime, a database between two
// commits) and is neither a sample nor deducted; the request after it gets
// the estimate, so a client that always pauses keeps every pause. (Before,
// a client pausing 2 ms before each request had ~2.1 ms deducted from each
// 5 ms seek of an HDD.) A pause shorter than that bound cannot be told
// from a round trip, and is deducted; and a model faster than the
// service's own lag after an idle spell still answers early (docs/nbd.md).
// Mode fixed deducts one given duration from every request; off deducts
// nothing.
//
// Thread-safe: every method may be called from any transport thread.
#ifndef STORLAB_SIM_SERVE_COMPENSATION_H_
#define STORLAB_SIM_SERVE_COMPENSATION_H_

#include <array>
#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "sim/histogram.h"
#include "sim/serve/sorted_window.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

struct CompensationOptions {
  enum class Mode { kAuto, kOff, kFixed };
  Mode mode = Mode::kAuto;
  Nanos fixed;  // kFixed
  // kAuto: an idle connection's own gap is deducted up to this percentile
  // of the recent round trips (above; 1 to 100).
  int idle_quantile = 20;
};

// "auto", "off" or a duration ("40us").
Result<CompensationOptions> ParseCompensation(std::string_view text);

class Compensator {
 public:
  explicit Compensator(CompensationOptions options) : options_(options) {}
  Compensator(const Compensator&) = delete;
  Compensator& operator=(const Compensator&) = delete;

  const CompensationOptions& options() const { return options_; }
  // The service's own path (post, run on the engine thread, hand back),
  // measured at start-up with the stack bypassed.
  void SetBaseline(Nanos in_process);
  Nanos baseline() const;
  // The transport's floor for requests moving `bytes` (a class's bound on
  // what a round trip may take; measured at start-up). Zero or less: none.
  void SetFloor(uint64_t bytes, Nanos round_trip);
  // A gap longer than this many floors (and than twice the estimate) is a
  // client's pause. Measured here (bench/nbd_fidelity.sh with the stats'
  // transport_floor_ns and round_trip_estimate_ns): fio's gap between an
  // answer and its next request is 1.3 to 4.4 times the socket pair's
  // (whose own median moves from 14 to 31 us between start-ups), the most
  // after a long idle (a vCPU woken from halt); the bound needs only some
  // of them under it to start the estimate, which then widens it.
  static constexpr int kPauseFactor = 6;

  // A request moving `bytes` (its data plus the previous answer's) arrived
  // on a connection that had nothing outstanding, `gap` after that
  // connection's previous answer was handed back.
  void ObserveIdleGap(uint64_t bytes, Nanos gap);
  // A request spent `overhead` in the service beyond its model's delay.
  void ObserveOverhead(Nanos overhead);
  // The backdate for a request moving `bytes`; `idle_gap`: the gap it was
  // sent after, if its connection had nothing outstanding.
  Nanos Deduction(uint64_t bytes, std::optional<Nanos> idle_gap) const;
  // The estimated round trip for `bytes` (what Deduction caps at).
  Nanos Estimate(uint64_t bytes) const;

  // What was deducted, as it took effect (after the engine's clamp).
  void RecordApplied(Nanos applied);
  void Reset();
  nlohmann::ordered_json Json() const;

 private:
  // Size classes: [0, 4 KiB], then one per power of two up to 64 MiB.
  static constexpr int kClasses = 16;
  static constexpr int kWindow = 64;
  // At QD32 on `ram` nearly every request arrives on an idle connection:
  // a copy and nth_element of the window per gap was the plugin's largest
  // own cost (2.9 % of the server's CPU), hence windows kept sorted.
  struct Class {
    SortedWindow<kWindow> gaps;
    int64_t estimate = -1;  // ns; -1: no samples yet
    int64_t idle_cap = -1;  // ns: what an idle connection's gap may give; -1: none
  };
  static int ClassOf(uint64_t bytes);
  Nanos GapLocked(uint64_t bytes) const;
  // The class's floor; -1: none measured.
  int64_t FloorLocked(int cls) const;

  const CompensationOptions options_;
  mutable std::mutex mu_;
  Nanos baseline_;
  std::array<Class, kClasses> classes_;
  SortedWindow<256> overhead_;             // recent samples
  int64_t overhead_estimate_ = -1;         // -1: none yet (the baseline stands in)
  std::array<int64_t, kClasses> floor_{};  // ns; 0: none
  uint64_t idle_samples_ = 0;
  uint64_t pauses_ = 0;  // gaps taken as a client's pause
  LatencyHistogram applied_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_COMPENSATION_H_
