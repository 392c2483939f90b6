// The option table's flow entries (options.h, flow.h): jobs that share a
// flow_id issue I/O in the ratio of their weights. Help texts are fio
// 3.33's own (options.c).
#include "workloads/fio/options.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {

void AddFlowOptions(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  add({.name = "flow_id",
       .type = OptType::kInt,
       .target = &O::flow_id,
       .def = "0",
       .help = "The flow index ID to use"});
  add({.name = "flow",
       .type = OptType::kInt,
       .target = &O::flow,
       .def = "0",
       .min = 0,
       .max = 1000,  // flow.h FLOW_MAX_WEIGHT
       .help = "Weight for flow control of this job"});
  add({.name = "flow_sleep",
       .type = OptType::kInt,
       .target = &O::flow_sleep,
       .def = "0",
       .min = 0,
       .help = "How many microseconds to sleep after being held back by the flow control "
               "mechanism"});
}

}  // namespace storlab::fio
