// The option table's error entries (options.h, error_policy.h): what a job
// does when an I/O fails. Help texts are fio 3.33's own (options.c).
#include "workloads/fio/error_policy.h"
#include "workloads/fio/options.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {

void AddErrorOptions(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  add({.name = "continue_on_error",
       .type = OptType::kEnum,
       .target = &O::continue_on_error,
       .def = "none",
       .values = {{"none", "Exit when an error is encountered"},
                  {"read", "Continue on read errors only"},
                  {"write", "Continue on write errors only"},
                  {"io", "Continue on any IO errors"},
                  {"verify", "Continue on verify errors only"},
                  {"all", "Continue on all io and verify errors"},
                  {"0", "Alias for 'none'"},
                  {"1", "Alias for 'all'"}},
       .help = "Continue on non-fatal errors during IO",
       .then = [](JobOptions* o, std::string_view v) { SetContinueOnError(&o->errors, v); }});
  add({.name = "ignore_error",
       .type = OptType::kString,
       .target = &O::ignore_error,
       .help = "Set a specific list of errors to ignore",
       .check = CheckIgnoreError,
       .then = [](JobOptions* o, std::string_view v) { ApplyIgnoreError(&o->errors, v); }});
  add({.name = "error_dump",
       .type = OptType::kBool,
       .target = &O::error_dump,
       .def = "0",
       .help = "Dump info on each error"});
}

}  // namespace storlab::fio
