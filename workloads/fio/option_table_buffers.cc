// The option table's entries for what write buffers hold (options.h,
// io_buffers.h), besides buffer_pattern (option_table_verify.cc), and
// fio's dedupe options. Help
// texts are fio 3.33's own (options.c).
#include "workloads/fio/options.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {

void AddBufferOptions(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  add({.name = "zero_buffers",
       .type = OptType::kSet,
       .target = &O::zero_buffers,
       .help = "Init IO buffers to all zeroes"});
  add({.name = "refill_buffers",
       .type = OptType::kSet,
       .target = &O::refill_buffers,
       .help = "Refill IO buffers on every IO submit"});
  add({.name = "scramble_buffers",
       .type = OptType::kBool,
       .target = &O::scramble_buffers,
       .def = "1",
       .help = "Slightly scramble buffers on every IO submit"});
  add({.name = "buffer_compress_percentage",
       .type = OptType::kInt,
       .target = &O::buffer_compress_percentage,
       .min = 0,
       .max = 100,
       .help = "How compressible the buffer is (approximately)"});
  add({.name = "buffer_compress_chunk",
       .type = OptType::kSize,
       .target = &O::buffer_compress_chunk,
       .def = "512",
       .help = "Size of compressible region in buffer"});
  // options.c str_dedupe_cb() (refill_buffers on), io_u.c get_buf_state(),
  // dedupe.c; the checks are init.c fixup_options()'s (job_spec.cc).
  add({.name = "dedupe_percentage",
       .type = OptType::kInt,
       .target = &O::dedupe_percentage,
       .min = 0,
       .max = 100,
       .help = "Percentage of buffers that are dedupable"});
  add({.name = "dedupe_global",
       .type = OptType::kBool,
       .target = &O::dedupe_global,
       .def = "0",
       .help = "Share deduplication buffers across jobs"});
  add({.name = "dedupe_mode",
       .type = OptType::kEnum,
       .target = &O::dedupe_mode,
       .def = "repeat",
       .values = {{"repeat", "repeat previous page"},
                  {"working_set",
                   "choose a page randomly from limited working set defined in "
                   "dedupe_working_set_percentage"}},
       .help = "Mode for the deduplication buffer generation"});
  add({.name = "dedupe_working_set_percentage",
       .type = OptType::kInt,
       .target = &O::dedupe_working_set_percentage,
       .def = "5",
       .min = 0,
       .max = 100,
       .help = "Dedupe working set size in percentages from file or device size used to generate "
               "dedupe patterns from"});
}

}  // namespace storlab::fio
