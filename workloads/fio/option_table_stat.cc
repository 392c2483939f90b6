// The option table's percentile entries (options.h). Help texts are fio's
// own (options.c).
#include "workloads/fio/options.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {

void AddStatOptions(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  add({.name = "clat_percentiles",
       .type = OptType::kBool,
       .target = &O::clat_percentiles,
       .def = "1",
       .help = "Enable the reporting of completion latency percentiles"});
  add({.name = "lat_percentiles",
       .type = OptType::kBool,
       .target = &O::lat_percentiles,
       .def = "0",
       .help = "Enable the reporting of IO latency percentiles"});
  add({.name = "slat_percentiles",
       .type = OptType::kBool,
       .target = &O::slat_percentiles,
       .def = "0",
       .help = "Enable the reporting of submission latency percentiles"});
  add({.name = "percentile_list",
       .type = OptType::kFloatList,
       .target = &O::percentile_list,
       .def = "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
       .help = "Specify a custom list of percentiles to report for completion latency and "
               "block errors"});
}

}  // namespace storlab::fio
