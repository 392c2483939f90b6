#include "workloads/fio/rand_dist_gen.h"

#include <algorithm>
#include <cmath>

namespace storlab::fio {
namespace {

// lib/zipf.c ZIPF_MAX_GEN: zeta(n) is summed over at most 10M terms.
constexpr uint64_t kZipfMaxGen = 10'000'000;
// lib/gauss.c GAUSS_ITERS.
constexpr int kGaussIters = 12;
// hash.h __hash_u64.
constexpr uint64_t kGoldenRatio64 = 0x61C8864680B583EBULL;

}  // namespace

// lib/zipf.c zipf_init, pareto_init (shared_rand_init); lib/gauss.c
// gauss_init; init.c's zone_state_index for the zoned kinds.
RandDistGen::RandDistGen(const RandDist& d, uint64_t blocks, uint64_t block_size, uint64_t seed)
    : d_(d),
      blocks_(blocks),
      block_size_(block_size),
      rand_(seed),
      zone_rand_(seed ^ 0x7a6f6e65ULL) {
  const auto n = static_cast<double>(blocks_);
  switch (d_.kind) {
    case RandDist::Kind::kZipf:
    case RandDist::Kind::kPareto:
      rand_off_ = rand_.Next();
      if (d_.center != -1) rand_off_ = static_cast<uint64_t>(n * d_.center);
      if (d_.kind == RandDist::Kind::kZipf) {
        zeta2_ = std::pow(1.0, d_.value) + std::pow(0.5, d_.value);
        const uint64_t to_gen = std::min(blocks_, kZipfMaxGen);
        for (uint64_t i = 0; i < to_gen; ++i) {
          zetan_ += std::pow(1.0 / static_cast<double>(i + 1), d_.value);
        }
      } else {
        pareto_pow_ = std::log(d_.value) / std::log(1.0 - d_.value);
      }
      break;
    case RandDist::Kind::kNormal:
      if (d_.value != 0.0) {
        stddev_ = static_cast<uint64_t>(std::ceil(n * d_.value / 100.0));
        stddev_ = std::min(stddev_, blocks_ / 2);
      }
      rand_off_ = d_.center == -1 ? 0 : static_cast<uint64_t>(n * (d_.center - 0.5));
      break;
    case RandDist::Kind::kZoned:
    case RandDist::Kind::kZonedAbs: {
      uint64_t prev = 0, acc = 0;
      for (const auto& z : d_.zones) {
        const uint64_t end = prev + z.size;
        for (unsigned v = 0; v < z.access_perc && acc < 100; ++v, ++acc) {
          index_.emplace_back(prev, end);
        }
        prev = end;
      }
      while (index_.size() < 100)
        index_.emplace_back(0, d_.kind == RandDist::Kind::kZoned ? 100 : blocks_ * block_size_);
      break;
    }
    case RandDist::Kind::kRandom:
      break;
  }
}

double RandDistGen::Uniform() { return rand_.Next() / (4294967295.0 + 1.0); }

// lib/zipf.c zipf_next: Gray et al.'s "Quickly generating billion-record
// synthetic databases" (SIGMOD 1994), then hashed so hot blocks scatter.
uint64_t RandDistGen::Zipf() {
  const auto n = static_cast<double>(blocks_);
  const double alpha = 1.0 / (1.0 - d_.value);
  const double eta = (1.0 - std::pow(2.0 / n, 1.0 - d_.value)) / (1.0 - zeta2_ / zetan_);
  const double rand_uni = rand_.Next() / 4294967295.0;  // FRAND32_MAX
  const double rand_z = rand_uni * zetan_;
  uint64_t val;
  if (rand_z < 1.0) {
    val = 1;
  } else if (rand_z < 1.0 + std::pow(0.5, d_.value)) {
    val = 2;
  } else {
    val = 1 + static_cast<uint64_t>(n * std::pow(eta * rand_uni - eta + 1.0, alpha));
  }
  return ((val - 1) * (hash_ ? kGoldenRatio64 : 1) + rand_off_) % blocks_;
}

// lib/zipf.c pareto_next.
uint64_t RandDistGen::Pareto() {
  const double r = rand_.Next() / 4294967295.0;
  const auto n = static_cast<uint64_t>(static_cast<double>(blocks_ - 1) * std::pow(r, pareto_pow_));
  return (n * (hash_ ? kGoldenRatio64 : 1) + rand_off_) % blocks_;
}

// lib/gauss.c gauss_next: the mean of 12 uniform draws, plus a deviation.
uint64_t RandDistGen::Gauss() {
  uint64_t sum = 0;
  for (int i = 0; i < kGaussIters; ++i) sum += rand_.Next() % (blocks_ + 1);
  sum = (sum + kGaussIters - 1) / kGaussIters;
  if (stddev_) {
    const auto r = rand_.Next();
    auto dev = static_cast<int64_t>(static_cast<double>(stddev_) * (r / (4294967295.0 + 1.0))) -
               static_cast<int64_t>(stddev_ / 2);
    while (dev + static_cast<int64_t>(sum) >= static_cast<int64_t>(blocks_)) dev /= 2;
    sum = static_cast<uint64_t>(static_cast<int64_t>(sum) + dev);
  }
  return (sum * (hash_ ? kGoldenRatio64 : 1) + rand_off_) % blocks_;
}

// io_u.c __get_next_rand_offset_zoned / _zoned_abs: a zone by its share of
// the I/Os, then a uniform block inside it.
uint64_t RandDistGen::Zoned() {
  const unsigned v =
      1 + static_cast<unsigned>((static_cast<uint64_t>(zone_rand_.Next()) * 100) >> 32);
  const auto [start, end] = index_[v - 1];
  uint64_t first, count;
  if (d_.kind == RandDist::Kind::kZoned) {
    first = start * blocks_ / 100;
    count = blocks_ * (end - start) / 100;
  } else {
    first = start / block_size_;
    count = end / block_size_ - first;
  }
  if (count == 0) return first % blocks_;
  return (first + static_cast<uint64_t>(static_cast<double>(count) * Uniform())) % blocks_;
}

uint64_t RandDistGen::Next() {
  switch (d_.kind) {
    case RandDist::Kind::kZipf:
      return Zipf();
    case RandDist::Kind::kPareto:
      return Pareto();
    case RandDist::Kind::kNormal:
      return Gauss();
    case RandDist::Kind::kZoned:
    case RandDist::Kind::kZonedAbs:
      return Zoned();
    case RandDist::Kind::kRandom:
      break;
  }
  return static_cast<uint64_t>(static_cast<double>(blocks_) * Uniform());
}

}  // namespace storlab::fio
