// fio's random_distribution: where the blocks of random I/O fall in a file
// when they are not uniform — zipf, pareto, normal (gauss), zoned and
// zoned_abs, as fio 3.33 parses them (options.c
// str_random_distribution_cb, parse_zoned_distribution, zone_split_ddir)
// and draws them (lib/zipf.c zipf_next, pareto_next; lib/gauss.c
// gauss_next; io_u.c __get_next_rand_offset_zoned, _zoned_abs). As in fio
// (init.c fixup_options), a distribution other than `random` turns the
// random map off (norandommap): hot blocks repeat, which is the point.
// The generator is rand_dist_gen.h. Thread-safe (pure functions).
#ifndef STORLAB_WORKLOADS_FIO_RAND_DIST_H_
#define STORLAB_WORKLOADS_FIO_RAND_DIST_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/status.h"

namespace storlab::fio {

struct RandDist {
  enum class Kind { kRandom, kZipf, kPareto, kNormal, kZoned, kZonedAbs };
  Kind kind = Kind::kRandom;
  double value = 0;    // zipf theta, pareto h, normal deviation (percent)
  double center = -1;  // 0..1, -1: none (a random offset)
  struct Zone {
    unsigned access_perc;  // percent of the I/Os
    uint64_t size;         // zoned: percent of the file; zoned_abs: bytes
  };
  std::vector<Zone> zones;  // zoned, zoned_abs
};

// Parses a random_distribution value ("zipf:1.2", "pareto:0.9:0.1",
// "normal:10", "zoned:50/5:30/15:20/", "zoned_abs:60/10m:40/", "random").
// Errors say what is wrong, with fio's limits.
Result<RandDist> ParseRandDist(std::string_view value);
// For the option table: the same check, as a Status.
Status CheckRandDist(std::string_view value);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_RAND_DIST_H_
