// Prints JSON the way fio's json.c does ("key" : value, two-space indents,
// floats as %f), so our output diffs cleanly against real fio's. Arrays of
// plain numbers (our time series) stay on one line. Thread-safe.
#ifndef STORLAB_WORKLOADS_FIO_FIO_JSON_PRINT_H_
#define STORLAB_WORKLOADS_FIO_FIO_JSON_PRINT_H_

#include <nlohmann/json.hpp>
#include <string>

namespace storlab::fio {

std::string FioJsonDump(const nlohmann::ordered_json& j);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_FIO_JSON_PRINT_H_
