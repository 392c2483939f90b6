// The option table's thinktime entries (options.h): thinktime,
// thinktime_blocks, thinktime_spin, thinktime_blocks_type and
// thinktime_iotime (backend.c handle_thinktime(), job_runner_pace.cc), and
// rate_ignore_thinktime.
// Help texts are fio 3.33's own (options.c).
#include <string_view>

#include "workloads/fio/options.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {

void AddThinktimeOptions(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  add({.name = "thinktime",
       .type = OptType::kTime,
       .target = &O::thinktime,
       .def = "0",
       .unit = TimeUnit::kMicroseconds,
       .help = "Idle time between IO buffers (usec)"});
  add({.name = "thinktime_blocks",
       .type = OptType::kInt,
       .target = &O::thinktime_blocks,
       .def = "1",
       .min = 1,
       .max = 1 << 30,
       .help = "IO buffer period between 'thinktime'",
       .then = [](JobOptions* o, std::string_view) { o->thinktime_blocks_set = true; }});
  // backend.c handle_thinktime(), init_thinktime() (job_runner_pace.cc).
  add({.name = "thinktime_spin",
       .type = OptType::kTime,
       .target = &O::thinktime_spin,
       .def = "0",
       .unit = TimeUnit::kMicroseconds,
       .help = "Start think time by spinning this amount (usec)"});
  add({.name = "thinktime_blocks_type",
       .type = OptType::kEnum,
       .target = &O::thinktime_blocks_type,
       .def = "complete",
       .values = {{"complete", "thinktime_blocks takes effect at the completion side"},
                  {"issue", "thinktime_blocks takes effect at the issue side"}},
       .help = "How thinktime_blocks takes effect"});
  add({.name = "thinktime_iotime",
       .type = OptType::kTime,
       .target = &O::thinktime_iotime,
       .def = "0",
       .unit = TimeUnit::kSeconds,
       .help = "IO time interval between 'thinktime'"});
  // backend.c handle_thinktime(): the time thought counts as I/O done at
  // the rate, so the rate does not catch up after it (job_runner_pace.cc).
  add({.name = "rate_ignore_thinktime",
       .type = OptType::kBool,
       .target = &O::rate_ignore_thinktime,
       .def = "0",
       .help = "Rated IO ignores thinktime settings"});
}

}  // namespace storlab::fio
