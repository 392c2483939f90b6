// fio 3.33's I/O engines and options that have no meaning for a simulated
// storage stack under a local file system, each with the one-line reason
// `storlab sim` gives when a job asks for one. Everything else fio has
// either works or is "not supported (yet)" (options.cc). Thread-safe
// (immutable data).
#ifndef STORLAB_WORKLOADS_FIO_FIO_NO_MEANING_H_
#define STORLAB_WORKLOADS_FIO_FIO_NO_MEANING_H_

#include <string_view>
#include <vector>

namespace storlab::fio {

// Why ioengine=`engine` means nothing here ("" when it could: a local-file
// engine storlab sim has not modelled, or an unknown name).
std::string_view EngineNoMeaning(std::string_view engine);
// Why option `name` means nothing here ("" when it could).
std::string_view OptionNoMeaning(std::string_view name);
// Every option OptionNoMeaning() explains, in its table's order.
std::vector<std::string_view> NoMeaningOptions();
// Why `option`=`value` means nothing here ("" when it could): an engine
// (EngineNoMeaning) or another option's value (zonemode=zbd).
std::string_view ValueNoMeaning(std::string_view option, std::string_view value);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_FIO_NO_MEANING_H_
