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
  // Rounds to the nearest nanosecond.
  static Nanos FromSeconds(double s) { return Nanos(std::llround(s * 1e9)); }

  constexpr int64_t count() const { return ns_; }
  constexpr double seconds() const { return static_cast<double>(ns_) * 1e-9; }
  constexpr double millis() const { return static_cast<double>(ns_) * 1e-6; }
  constexpr double micros() const { return static_cast<double>(ns_) * 1e-3; }

  constexpr auto operator<=>(const Nanos&) const = default;
  constexpr Nanos operator+(Nanos o) const { return Nanos(ns_ + o.ns_); }
  constexpr Nanos operator-(Nanos o) const { return Nanos(ns_ - o.ns_); }
  constexpr Nanos operator*(int64_t k) const { return Nanos(ns_ * k); }
  constexpr Nanos operator/(int64_t k) const { return Nanos(ns_ / k); }
  constexpr int64_t operator/(Nanos o) const { return ns_ / o.ns_; }
  constexpr Nanos operator%(Nanos o) const { return Nanos(ns_ % o.ns_); }
  constexpr Nanos& operator+=(Nanos o) {
    ns_ += o.ns_;
    return *this;
  }
  constexpr Nanos& operator-=(Nanos o) {
    ns_ -= o.ns_;
    return *this;
  }

 private:
  int64_t ns_ = 0;
};

constexpr Nanos Max(Nanos a, Nanos b) { return a < b ? b : a; }
constexpr Nanos Min(Nanos a, Nanos b) { return a < b ? a : b; }

// Time to move `bytes` at `bytes_per_s`, rounded up to a whole nanosecond so
// that a positive transfer never takes zero time.
// REQUIRES: bytes_per_s > 0.
inline Nanos TransferTime(uint64_t bytes, double bytes_per_s) {
  return Nanos(static_cast<int64_t>(std::ceil(static_cast<double>(bytes) * 1e9 / bytes_per_s)));
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
