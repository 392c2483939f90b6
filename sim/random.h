// Random: a seeded, deterministic generator (xoshiro256**, seeded through
// splitmix64) with the few distributions the models need.
//
// The only source of randomness in storlab. Distributions are written out
// here rather than taken from <random>, whose distributions differ between
// standard libraries, so results repeat on every platform. Each component
// owns its own generator, derived from the run's seed and the component's
// name, so adding a component does not shift anyone else's stream.
// Not thread-safe; a value type.
#ifndef STORLAB_SIM_RANDOM_H_
#define STORLAB_SIM_RANDOM_H_

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace storlab {

class Random {
 public:
  explicit Random(uint64_t seed) { Seed(seed); }
  // A generator for component `name` under run seed `seed`.
  Random(uint64_t seed, std::string_view name) { Seed(seed ^ Fnv1a(name)); }

  void Seed(uint64_t seed) {
    uint64_t x = seed;
    for (auto& w : s_) w = SplitMix64(x);
  }

  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // Fills `n` bytes at `p`, eight per draw (the last draw's low bytes for a
  // tail), in the host's byte order: test data and buffers, not a model.
  void Fill(uint8_t* p, size_t n) {
    for (size_t i = 0; i < n; i += 8) {
      const uint64_t v = Next();
      std::memcpy(p + i, &v, n - i < 8 ? n - i : 8);
    }
  }
  // Uniform in [0, n). REQUIRES: n > 0. (Lemire's multiply-shift; the tiny
  // bias for huge n does not matter here and keeps it branch-free.)
  uint64_t Uniform(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * n) >> 64);
  }
  // Uniform in [0, 1).
  double UniformDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // True with probability p.
  bool Bernoulli(double p) { return UniformDouble() < p; }
  // Exponential with the given mean.
  double Exponential(double mean) { return -mean * std::log1p(-UniformDouble()); }

  // An offset of a model's initial state for run seed `seed` (a spindle's
  // angle, where a head rests, where a write stripe stands), in [0, 1):
  // the draw of component `name` for `seed` minus its draw for seed 1,
  // modulo 1. Uniform over seeds, and exactly 0 for seed 1: seed 1 is the
  // reference run (the golden files, the demo's table), every other seed an
  // equally likely start relative to it.
  static double InitialOffset(uint64_t seed, std::string_view name) {
    const double d = Random(seed, name).UniformDouble() - Random(1, name).UniformDouble();
    const double r = d < 0 ? d + 1.0 : d;
    return r < 1.0 ? r : 0.0;  // -1e-17 + 1 rounds to 1
  }

  // The generator's whole state (storlab sim --state keeps it, so a
  // restored run draws what one longer run would have drawn).
  using State = std::array<uint64_t, 4>;
  State state() const { return {s_[0], s_[1], s_[2], s_[3]}; }
  void set_state(const State& s) {
    for (size_t i = 0; i < 4; ++i) s_[i] = s[i];
  }

  static uint64_t Fnv1a(std::string_view s) {
    uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ULL;
    }
    return h;
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t SplitMix64(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t s_[4];
};

// Jitter: a per-event perturbation for run seed `seed` (a command's firmware
// time, a NAND program, a network round trip), built like
// Random::InitialOffset: the component's draw under `seed` minus its draw
// under seed 1, each uniform in [0, width). So it is exactly 0 in the
// reference run (seed 1: nothing moves) and, over other seeds, symmetric
// around 0 — triangular on (−width, width) — so seed 1 sits at the centre
// of the spread, not at an edge of it. Not thread-safe; a value type.
class Jitter {
 public:
  Jitter(uint64_t seed, std::string_view name, double width)
      : on_(seed != 1 && width > 0), width_(width), draw_(seed, name), ref_(1, name) {}
  double Next() {
    if (!on_) return 0;
    return (draw_.UniformDouble() - ref_.UniformDouble()) * width_;
  }
  // The two generators' state (see Random::state()).
  std::array<Random::State, 2> state() const { return {draw_.state(), ref_.state()}; }
  void set_state(const std::array<Random::State, 2>& s) {
    draw_.set_state(s[0]);
    ref_.set_state(s[1]);
  }

 private:
  bool on_;
  double width_;
  Random draw_, ref_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_RANDOM_H_
