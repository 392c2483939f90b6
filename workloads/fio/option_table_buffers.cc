// The option table's entries for what write buffers hold (options.h,
// io_buffers.h), besides buffer_pattern (option_table_verify.cc). Help
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
}

}  // namespace storlab::fio
