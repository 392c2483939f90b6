// The option table's I/O pattern entries (options.h) added to run fio's own
// example job files: random_distribution (rand_dist.h) and the tiobench
// profile's `threads`. Help texts are fio's own (options.c,
// profiles/tiobench.c).
#include "workloads/fio/options.h"
#include "workloads/fio/rand_dist.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {

void AddIoOptions(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  add({.name = "random_distribution",
       .type = OptType::kString,
       .target = &O::random_distribution,
       .def = "random",
       .help = "Random offset distribution generator: random (uniform), zipf[:theta[:center]], "
               "pareto[:h[:center]], normal[:dev[:center]], zoned:P/S:..., zoned_abs:P/SIZE:...",
       .check = CheckRandDist});
  // profiles/tiobench.c registers "threads" with fio's options, so fio
  // accepts it in any job file and uses it only with --profile=tiobench
  // (steadystate.fio and waitfor.fio write threads=1).
  add({.name = "threads",
       .type = OptType::kInt,
       .target = &O::tiobench_threads,
       .min = 0,
       .max = 4096,
       .help = "Number of Threads (the tiobench profile's; no effect without --profile=tiobench, "
               "as in fio)"});
}

}  // namespace storlab::fio
