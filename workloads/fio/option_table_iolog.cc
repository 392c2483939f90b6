// The option table's trace replay entries (options.h): fio's read_iolog,
// write_iolog, the replay_* settings and merge_blktrace_* (iolog_read.h,
// iolog_write.h). Help texts are fio 3.33's own (options.c), including its
// swapped texts for replay_scale and replay_align.
#include "workloads/fio/iolog_read.h"
#include "workloads/fio/options.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {

void AddIologOptions(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  add({.name = "write_iolog",
       .type = OptType::kString,
       .target = &O::write_iolog,
       .help = "Store IO pattern to file"});
  add({.name = "read_iolog",
       .type = OptType::kString,
       .target = &O::read_iolog,
       .help = "Playback IO pattern from file"});
  add({.name = "replay_no_stall",
       .type = OptType::kBool,
       .target = &O::replay_no_stall,
       .def = "0",
       .help = "Playback IO pattern file as fast as possible without stalls"});
  add({.name = "replay_redirect",
       .type = OptType::kString,
       .target = &O::replay_redirect,
       .help = "Replay all I/O onto this device, regardless of trace device"});
  add({.name = "replay_scale",
       .type = OptType::kInt,
       .target = &O::replay_scale,
       .def = "1",
       .max = INT32_MAX,
       .help = "Align offsets to this blocksize"});
  add({.name = "replay_align",
       .type = OptType::kInt,
       .target = &O::replay_align,
       .max = INT32_MAX,
       .help = "Scale offset down by this factor"});
  add({.name = "replay_time_scale",
       .type = OptType::kInt,
       .target = &O::replay_time_scale,
       .def = "100",
       .min = 1,
       .max = INT32_MAX,
       .help = "Scale time for replay events"});
  // blktrace.c handle_trace_fs(), handle_trace_discard(),
  // handle_trace_flush() (blktrace_read.cc). fio's help says "flush", its
  // parser wants "sync".
  add({.name = "replay_skip",
       .type = OptType::kString,
       .target = &O::replay_skip,
       .help = "Skip certain IO types (read,write,trim,flush)",
       .check = [](std::string_view v) { return ParseReplaySkip(v).status(); }});
  // iolog.c read_iolog2(), blktrace.c read_blktrace(): the log is read as
  // the replay goes (iolog_spec.cc: a blktrace's depth is not probed).
  add({.name = "read_iolog_chunked",
       .type = OptType::kBool,
       .target = &O::read_iolog_chunked,
       .def = "0",
       .help = "Parse IO pattern in chunks"});
  // blktrace.c merge_blktrace_iologs(), as fio 3.33 runs it (blktrace_merge.cc).
  add({.name = "merge_blktrace_file",
       .type = OptType::kString,
       .target = &O::merge_blktrace_file,
       .help = "Merged blktrace output filename"});
  add({.name = "merge_blktrace_scalars",
       .type = OptType::kString,
       .target = &O::merge_blktrace_scalars,
       .help = "Percentage to scale each trace",
       .check = CheckMergeList});
  add({.name = "merge_blktrace_iters",
       .type = OptType::kString,
       .target = &O::merge_blktrace_iters,
       .help = "Number of iterations to run per trace",
       .check = CheckMergeList});
}

}  // namespace storlab::fio
