#include "sim/devices/hdd_seek.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace storlab {
namespace {

// Σ_{n=1}^{m} n^s for s = 1/2 and 3/2, exactly for small m and by the
// Euler–Maclaurin expansion (error < 1e-12 relative) beyond, so the fitted
// mean is the manuals' discrete weighted sum at any disk size in O(1).
double PowerSum(uint64_t m, double s) {
  if (m < 64) {
    double sum = 0;
    for (uint64_t n = 1; n <= m; ++n) sum += std::pow(static_cast<double>(n), s);
    return sum;
  }
  const double x = static_cast<double>(m);
  const double zeta = s == 0.5 ? -0.2078862250773545 : -0.02548520188983303;  // ζ(−s)
  return zeta + std::pow(x, s + 1) / (s + 1) + std::pow(x, s) / 2 + s * std::pow(x, s - 1) / 12 -
         s * (s - 1) * (s - 2) * std::pow(x, s - 3) / 720;
}

// Σ_{n=1}^{m} n and Σ n².
double Tri(double m) { return m * (m + 1) / 2; }
double Sq(double m) { return m * (m + 1) * (2 * m + 1) / 6; }

std::string Ms(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3fms", v);
  return buf;
}

}  // namespace

SeekCurve SeekCurve::Solve(double ttt, double full, uint64_t max, double knee) {
  // t(1) = a + b = ttt; slope match e = b / (2√K); value match
  // c = a + b√K − eK; t(max) = c + e·max = full  →  one linear equation in b.
  SeekCurve s;
  s.max_ = max;
  s.ttt_ = ttt;
  s.knee_ = knee;
  const double rk = std::sqrt(knee);
  const double d = static_cast<double>(max);
  s.b_ = (full - ttt) / (rk / 2 + d / (2 * rk) - 1);
  s.a_ = ttt - s.b_;
  s.e_ = s.b_ / (2 * rk);
  s.c_ = s.a_ + s.b_ * rk - s.e_ * knee;
  return s;
}

SeekCurve SeekCurve::SolveSettled(double ttt, double settle, double full, uint64_t max,
                                  double knee) {
  // a = settle; e = b / (2√K); c = a + b√K − eK = a + b√K/2;
  // t(max) = c + e·max = full  →  b.
  SeekCurve s;
  s.max_ = max;
  s.ttt_ = ttt;
  s.knee_ = knee;
  const double rk = std::sqrt(knee);
  s.a_ = settle;
  s.b_ = (full - settle) / (rk / 2 + static_cast<double>(max) / (2 * rk));
  s.e_ = s.b_ / (2 * rk);
  s.c_ = settle + s.b_ * rk / 2;
  return s;
}

SeekCurve SeekCurve::SolveSteep(double ttt, double avg, double full, uint64_t max) {
  // Mean·W = w1·ttt + a·A + b·B with A = Σ_{n>=2} w_n, B = Σ_{n>=2} w_n √n,
  // and a = full − b√max.
  SeekCurve s;
  s.max_ = max;
  s.ttt_ = ttt;
  s.knee_ = static_cast<double>(max);
  const double d = static_cast<double>(max);
  const double w = Tri(d), big_a = w - d;
  const double big_b = (d + 1) * (PowerSum(max, 0.5) - 1) - (PowerSum(max, 1.5) - 1);
  s.b_ = (avg * w - d * ttt - full * big_a) / (big_b - std::sqrt(d) * big_a);
  s.a_ = full - s.b_ * std::sqrt(d);
  s.e_ = s.b_ / (2 * std::sqrt(d));
  s.c_ = full - s.e_ * d;
  return s;
}

bool SeekCurve::through_single_track() const { return std::abs(a_ + b_ - ttt_) < 1e-9; }

double SeekCurve::Millis(double d) const {
  if (d <= 0) return 0;
  if (d <= 1) return ttt_;
  return d <= knee_ ? a_ + b_ * std::sqrt(d) : c_ + e_ * d;
}

double SeekCurve::MeanMillis() const {
  // (2 / (max(max+1))) Σ_{n=1}^{max} (max + 1 − n) t(n): t(1) on its own,
  // the √ part for n = 2..k, the linear part beyond.
  const double d = static_cast<double>(max_);
  const uint64_t k =
      std::max<uint64_t>(1, std::min<uint64_t>(max_, static_cast<uint64_t>(std::floor(knee_))));
  const double kk = static_cast<double>(k);
  double sum = d * ttt_;
  sum += a_ * ((d + 1) * (kk - 1) - (Tri(kk) - 1)) +
         b_ * ((d + 1) * (PowerSum(k, 0.5) - 1) - (PowerSum(k, 1.5) - 1));
  sum += c_ * Tri(d - kk) + e_ * ((d + 1) * (Tri(d) - Tri(kk)) - (Sq(d) - Sq(kk)));
  return sum / Tri(d);
}

Result<SeekCurve> SeekCurve::Fit(const Figures& f, uint64_t cylinders) {
  const double ttt = f.track_to_track.millis(), avg = f.average.millis();
  const double full = f.full_stroke.millis();
  if (cylinders < 3) return Status::InvalidArgument("a seek curve needs at least 3 cylinders");
  if (!(ttt > 0 && ttt < avg && avg < full)) {
    return Status::InvalidArgument("seek times must satisfy 0 < track-to-track (" + Ms(ttt) +
                                   ") < average (" + Ms(avg) + ") < full stroke (" + Ms(full) +
                                   ")");
  }
  const uint64_t max = cylinders - 1;
  const double settle = f.settle.millis();
  if (settle > 0 && !(settle < avg)) {
    return Status::InvalidArgument("the settle time (" + Ms(settle) +
                                   ") must be below the average seek (" + Ms(avg) + ")");
  }
  auto solve = [&](double knee) {
    return settle > 0 ? SolveSettled(ttt, settle, full, max, knee) : Solve(ttt, full, max, knee);
  };
  // The mean grows with the knee: from a straight line (K = 1) to a pure
  // square root (K = max). Bisect on log K.
  const double lo_mean = solve(1).MeanMillis();
  const double hi_mean = solve(static_cast<double>(max)).MeanMillis();
  if (avg < lo_mean) {
    return Status::InvalidArgument(
        "an average seek of " + Ms(avg) + " cannot be fitted with track-to-track " + Ms(ttt) +
        (settle > 0 ? ", settle " + Ms(settle) : std::string()) + " and full stroke " + Ms(full) +
        " over " + std::to_string(cylinders) + " cylinders: it must be at least " + Ms(lo_mean) +
        " (a straight line; seek curves are not convex)");
  }
  if (avg > hi_mean) {
    if (settle > 0) {
      return Status::InvalidArgument("an average seek of " + Ms(avg) +
                                     " cannot be fitted with settle " + Ms(settle) +
                                     " and full stroke " + Ms(full) + ": it must be at most " +
                                     Ms(hi_mean) + " (a pure square root); raise the settle time");
    }
    SeekCurve s = SolveSteep(ttt, avg, full, max);
    if (!(s.b_ > 0)) {
      return Status::InvalidArgument("an average seek of " + Ms(avg) +
                                     " is too close to the full stroke " + Ms(full) +
                                     " to be fitted");
    }
    return s;
  }
  double lo = 0, hi = std::log(static_cast<double>(max));
  for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
    const double mid = (lo + hi) / 2;
    if (solve(std::exp(mid)).MeanMillis() < avg) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return solve(std::exp((lo + hi) / 2));
}

}  // namespace storlab
