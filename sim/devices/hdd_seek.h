// SeekCurve: a disk's seek time as a function of the seek distance in
// cylinders, fitted to the three figures a drive manual publishes.
//
// The shape is Ruemmler & Wilkes' ("An introduction to disk drive
// modeling", IEEE Computer 1994): the arm accelerates then decelerates over
// short seeks, t(d) = a + b·√d, and coasts at top speed over long ones,
// t(d) = c + e·d, the two parts meeting at a knee K in value and slope (C¹).
// The fit meets exactly
//   t(1)     = the single-track (track-to-track) seek,
//   t(max)   = the full-stroke seek,
//   the mean = the average seek, as the manuals define it: the weighted
//              average over all seek lengths n = 1..max with weight
//              (max + 1 − n), i.e. over all pairs of cylinders (HGST/Hitachi
//              OEM specifications, "Mechanical positioning").
// Where the curve through t(1) can reach the average (a + b = t(1)), the
// knee is what is fitted. If a settle time is given, it is the intercept a
// of the √ part for seeks of two tracks or more (every such seek pays it),
// the single-track seek stays a point of its own, and again the knee is
// fitted. Where the average is higher than even a pure
// square root through t(1) allows — 2.5" drives, whose settle time makes
// every seek beyond a single track cost several ms — the single-track seek
// stays a point of its own (a servo micro-jog, as in Ruemmler & Wilkes'
// HP 97560 model, where t(1) is not on the curve) and a and b of the pure
// square root are fitted instead. A seek of distance 0 costs nothing.
// Times include settling, as the manuals' figures do.
//
// Value type; thread-compatible.
#ifndef STORLAB_SIM_DEVICES_HDD_SEEK_H_
#define STORLAB_SIM_DEVICES_HDD_SEEK_H_

#include <cstdint>

#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class SeekCurve {
 public:
  struct Figures {
    Nanos track_to_track;
    Nanos average;
    Nanos full_stroke;
    Nanos settle;  // 0: not given (the curve passes through t(1))
  };

  // Fits the curve for a disk with `cylinders` cylinders (longest seek
  // cylinders − 1). Fails, saying why and which range would work, when the
  // figures cannot be met by this shape (e.g. an average outside what the
  // other two allow). REQUIRES: cylinders >= 3.
  static Result<SeekCurve> Fit(const Figures& f, uint64_t cylinders);

  // Seek time over `distance` cylinders; 0 for distance 0.
  // REQUIRES: distance <= max_distance().
  Nanos Time(uint64_t distance) const { return Nanos::FromSeconds(Millis(distance) * 1e-3); }
  double Millis(double distance) const;
  // The manuals' weighted average over all seek lengths, in ms (the
  // continuous form the fit uses; the discrete sum agrees to ~1/max).
  double MeanMillis() const;

  uint64_t max_distance() const { return max_; }
  double knee() const { return knee_; }
  // True when t(1) lies on the √ curve (a + b = t(1)).
  bool through_single_track() const;
  double a() const { return a_; }
  double b() const { return b_; }
  double c() const { return c_; }
  double e() const { return e_; }

 private:
  SeekCurve() = default;
  // The curve through t(1) = ttt and t(max) = full, C¹ at `knee`.
  static SeekCurve Solve(double ttt_ms, double full_ms, uint64_t max, double knee);
  // The curve with intercept a = settle for n >= 2, t(max) = full, C¹ at
  // `knee`; t(1) = ttt on its own.
  static SeekCurve SolveSettled(double ttt, double settle, double full, uint64_t max, double knee);
  // The pure square root for n >= 2 with t(max) = full and the given mean;
  // t(1) = ttt on its own.
  static SeekCurve SolveSteep(double ttt_ms, double avg_ms, double full_ms, uint64_t max);

  uint64_t max_ = 0;
  double ttt_ = 0, knee_ = 1, a_ = 0, b_ = 0, c_ = 0, e_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_HDD_SEEK_H_
