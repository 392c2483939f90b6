// The option table's I/O path entries (options.h): when files are
// fsync'ed besides fsync=/end_fsync, the latency that ends a job, and
// I/Os that wait for overlapping ones.
// Help texts are fio 3.33's own (options.c).
#include "workloads/fio/options.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {

void AddSyncOptions(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  // backend.c do_io(): with end_fsync or fsync_on_close, each file is
  // fsync'ed when the I/O is done (job_runner.cc FinishIo()).
  add({.name = "fsync_on_close",
       .type = OptType::kBool,
       .target = &O::fsync_on_close,
       .def = "0",
       .help = "fsync files on close"});
  // filesetup.c extend_file(): a file laid out is fsync'ed (fio_run_layout.cc).
  add({.name = "create_fsync",
       .type = OptType::kBool,
       .target = &O::create_fsync,
       .def = "1",
       .help = "fsync file after creation"});
  // io_u.c account_io_completion(), lat_fatal() (job_runner_latency.cc).
  add({.name = "max_latency",
       .type = OptType::kTimeDirs,
       .target = &O::max_latency_ns,
       .unit = TimeUnit::kMicroseconds,
       .help = "Maximum tolerated IO latency (usec)"});
  // backend.c io_u_submit(), in_flight_overlap() (job_runner_overlap.cc).
  add({.name = "serialize_overlap",
       .type = OptType::kBool,
       .target = &O::serialize_overlap,
       .def = "0",
       .help = "Wait for in-flight IOs that collide to complete"});
}

}  // namespace storlab::fio
