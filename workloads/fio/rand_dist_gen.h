// The generator of fio's random_distribution (rand_dist.h): block numbers
// drawn as fio 3.33 draws them (lib/zipf.c zipf_next, pareto_next;
// lib/gauss.c gauss_next; io_u.c __get_next_rand_offset_zoned, _zoned_abs).
// The random numbers are our taus88's (offset_gen.h), seeded from the job,
// so the sequence repeats but is not fio's bit for bit.
// Not thread-safe.
#ifndef STORLAB_WORKLOADS_FIO_RAND_DIST_GEN_H_
#define STORLAB_WORKLOADS_FIO_RAND_DIST_GEN_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "workloads/fio/offset_gen.h"
#include "workloads/fio/rand_dist.h"

namespace storlab::fio {

// Draws block numbers in [0, blocks) from a distribution.
class RandDistGen {
 public:
  // `block_size`: bytes per block (zoned_abs sizes are converted with it).
  // REQUIRES: d.kind != kRandom, blocks > 0.
  RandDistGen(const RandDist& d, uint64_t blocks, uint64_t block_size, uint64_t seed);
  RandDistGen(const RandDistGen&) = delete;
  RandDistGen& operator=(const RandDistGen&) = delete;

  uint64_t Next();
  // Draws unscattered (lib/zipf.c zipf_disable_hash(), lib/gauss.c
  // gauss_disable_hash()): the hot ranges sit together, as fio's file
  // service draws them.
  void DisableHash() { hash_ = false; }

 private:
  double Uniform();  // [0, 1), fio's r / (FRAND32_MAX + 1.0)
  uint64_t Zipf();
  uint64_t Pareto();
  uint64_t Gauss();
  uint64_t Zoned();

  RandDist d_;
  uint64_t blocks_;
  uint64_t block_size_;
  Taus88 rand_;       // the distribution's own state (fio's zs->rand)
  Taus88 zone_rand_;  // fio's td->zone_state
  uint64_t rand_off_ = 0;
  bool hash_ = true;
  // zipf
  double zetan_ = 0, zeta2_ = 0;
  // pareto
  double pareto_pow_ = 0;
  // normal
  uint64_t stddev_ = 0;
  // zoned: for v in 1..100, the zone's start and end (percent, or blocks
  // for zoned_abs), fio's zone_state_index.
  std::vector<std::pair<uint64_t, uint64_t>> index_;
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_RAND_DIST_GEN_H_
