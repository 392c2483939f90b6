// Where a job's next I/O goes within a file: the block pickers behind fio's
// random_generator and random map.
//
//   tausworthe    L'Ecuyer's combined Tausworthe generator taus88 (32 bits),
//                 fio's default;
//   tausworthe64  L'Ecuyer's taus258 (64 bits), for files of more than 2^32
//                 blocks;
//   lfsr          fio uses a Galois LFSR so that every block is visited
//                 exactly once per pass without a map; we get the same
//                 property from a keyed Feistel permutation of the block
//                 numbers (cycle-walking into range).
//
// With the random map (fio's default for random I/O) each block is used once
// per pass: a block already used is replaced by the next free one after it,
// as fio's axmap_next_free() does; norandommap draws blocks independently.
// Determinism matters more than bit-exactness with fio: the sequences are
// ours, seeded from the job (see job_spec.h), and repeat exactly.
// Not thread-safe.
#ifndef STORLAB_WORKLOADS_FIO_OFFSET_GEN_H_
#define STORLAB_WORKLOADS_FIO_OFFSET_GEN_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "workloads/fio/fio_rand.h"
#include "workloads/fio/job_spec.h"

namespace storlab::fio {

class RandDistGen;

// A bit per block with a summary level, so "next free at or after b" is fast
// even when the map is nearly full.
class RandomMap {
 public:
  explicit RandomMap(uint64_t blocks);
  bool Test(uint64_t b) const { return (words_[b >> 6] >> (b & 63)) & 1; }
  void Set(uint64_t b);
  // The first clear bit at or after b, wrapping to 0; REQUIRES: !full().
  uint64_t NextFree(uint64_t b) const;
  bool full() const { return used_ == blocks_; }
  void Clear();

 private:
  uint64_t blocks_;
  uint64_t used_ = 0;
  std::vector<uint64_t> words_;
  std::vector<uint64_t> full_words_;  // bit w set: words_[w] has no clear bit
};

// Picks blocks of one file for random I/O.
class RandomPicker {
 public:
  RandomPicker(uint64_t blocks, RandGen gen, bool use_map, uint64_t seed);
  ~RandomPicker();
  // random_distribution other than uniform (rand_dist_gen.h): Next() takes
  // its blocks from `dist` (with no map: fio's norandommap).
  void SetDistribution(std::unique_ptr<RandDistGen> dist);
  // The next block; false when a pass is complete (every block used once —
  // never with norandommap unless lfsr). Call Restart() for the next pass.
  bool Next(uint64_t* block);
  void Restart();
  // An I/O from block `b` (just returned by Next) covers `n` blocks: marks
  // the ones after b in the map up to the first already used, and returns
  // how many blocks the I/O may keep (fio's mark_random_map() trims it
  // there). Without a map (norandommap, lfsr, a distribution): n.
  uint64_t Claim(uint64_t b, uint64_t n);
  uint64_t blocks() const { return blocks_; }

 private:
  uint64_t Draw();
  uint64_t Permute(uint64_t x) const;

  uint64_t blocks_;
  RandGen gen_;
  bool use_map_;
  Taus88 t88_;
  Taus258 t258_;
  RandomMap map_;
  // lfsr: Feistel permutation over 2*half_bits_ bits.
  unsigned half_bits_ = 1;
  uint64_t keys_[4] = {};
  uint64_t counter_ = 0;
  std::unique_ptr<RandDistGen> dist_;
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_OFFSET_GEN_H_
