// Simulated time: integer nanoseconds in a named type.
//
// Nanos is both a point in simulated time (nanoseconds since the start of the
// run) and a duration; the engine is the only place a point in time moves
// forward. Plain value type, thread-compatible.
#ifndef STORLAB_SIM_TIME_H_
#define STORLAB_SIM_TIME_H_

#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>

namespace storlab {

class Nanos {
 public:
  constexpr Nanos() = default;
  constexpr explicit Nanos(int64_t ns) : ns_(ns) {}

  static constexpr Nanos Max() { return Nanos(std::numeric_limits<int64_t>::max()); }
  static constexpr Nanos Min() { return Nanos(std::numeric_limits<int64_t>::min()); }
  // Rounds to the nearest nanosecond; saturates at Min()/Max() (NaN: Max()).
  static Nanos FromSeconds(double s) {
    double ns = s * 1e9;
    if (!(ns < 9.2e18)) return Max();
    if (ns < -9.2e18) return Min();
    return Nanos(std::llround(ns));
  }

  constexpr int64_t count() const { return ns_; }
  constexpr double seconds() const { return static_cast<double>(ns_) * 1e-9; }
  constexpr double millis() const { return static_cast<double>(ns_) * 1e-6; }
  constexpr double micros() const { return static_cast<double>(ns_) * 1e-3; }

  // clang-tidy 14 misreads the defaulted <=> (an ordering compared with 0).
  // NOLINTNEXTLINE(modernize-use-nullptr)
  constexpr auto operator<=>(const Nanos&) const = default;
  // Arithmetic saturates at Min()/Max() instead of overflowing, so a profile
  // with absurd figures (a 1 B/s link, a latency of centuries) gives a
  // useless run, not undefined behaviour. Never reached by sane figures:
  // Max() is 292 years.
  constexpr Nanos operator+(Nanos o) const {
    int64_t r;
    if (__builtin_add_overflow(ns_, o.ns_, &r)) return o.ns_ > 0 ? Max() : Min();
    return Nanos(r);
  }
  constexpr Nanos operator-(Nanos o) const {
    int64_t r;
    if (__builtin_sub_overflow(ns_, o.ns_, &r)) return o.ns_ < 0 ? Max() : Min();
    return Nanos(r);
  }
  constexpr Nanos operator*(int64_t k) const {
    int64_t r;
    if (__builtin_mul_overflow(ns_, k, &r)) return (ns_ < 0) == (k < 0) ? Max() : Min();
    return Nanos(r);
  }
  constexpr Nanos operator/(int64_t k) const { return Nanos(ns_ / k); }
  constexpr int64_t operator/(Nanos o) const { return ns_ / o.ns_; }
  constexpr Nanos operator%(Nanos o) const { return Nanos(ns_ % o.ns_); }
  constexpr Nanos& operator+=(Nanos o) { return *this = *this + o; }
  constexpr Nanos& operator-=(Nanos o) { return *this = *this - o; }

 private:
  int64_t ns_ = 0;
};

constexpr Nanos Max(Nanos a, Nanos b) { return a < b ? b : a; }
constexpr Nanos Min(Nanos a, Nanos b) { return a < b ? a : b; }

// Time to move `bytes` at `bytes_per_s`, rounded up to a whole nanosecond so
// that a positive transfer never takes zero time.
// Saturates at Nanos::Max() (a rate so low the transfer never ends).
// REQUIRES: bytes_per_s > 0.
inline Nanos TransferTime(uint64_t bytes, double bytes_per_s) {
  double ns = std::ceil(static_cast<double>(bytes) * 1e9 / bytes_per_s);
  if (!(ns < 9.2e18)) return Nanos::Max();
  return Nanos(static_cast<int64_t>(ns));
}

namespace time_literals {
constexpr Nanos operator""_ns(unsigned long long v) { return Nanos(static_cast<int64_t>(v)); }
constexpr Nanos operator""_us(unsigned long long v) {
  return Nanos(static_cast<int64_t>(v) * 1000);
}
constexpr Nanos operator""_ms(unsigned long long v) {
  return Nanos(static_cast<int64_t>(v) * 1000000);
}
constexpr Nanos operator""_s(unsigned long long v) {
  return Nanos(static_cast<int64_t>(v) * 1000000000);
}
}  // namespace time_literals

}  // namespace storlab

#endif  // STORLAB_SIM_TIME_H_
