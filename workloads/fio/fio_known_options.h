// The names of every option fio 3.33 has (fio_known_options.cc, generated
// from fio's own help by fio_known_options.sh): so that an option storlab
// sim does not support is reported as a fio option it does not support,
// not as a typo. Thread-safe (immutable tables).
#ifndef STORLAB_WORKLOADS_FIO_FIO_KNOWN_OPTIONS_H_
#define STORLAB_WORKLOADS_FIO_FIO_KNOWN_OPTIONS_H_

#include <span>
#include <string_view>

namespace storlab::fio {

// "fio-3.33": the fio the tables were generated from.
std::string_view FioVersion();
// A job option (job file or --name=value), an alias of one, or an I/O
// engine's option.
bool IsFioJobOption(std::string_view name);
// All of them, sorted.
std::span<const std::string_view> FioJobOptions();
// An option of fio's command line itself (--output, --eta, ...), without
// the dashes.
bool IsFioCommandLineOption(std::string_view name);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_FIO_KNOWN_OPTIONS_H_
