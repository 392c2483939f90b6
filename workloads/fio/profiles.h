// fio's built-in profiles (fio --profile=NAME; profile.c load_profile()):
// the job sections a profile adds after every other job, as fio 3.33
// generates them. tiobench (profiles/tiobench.c) is modelled; act
// (profiles/act.c) is not. Thread-safe (pure functions).
#ifndef STORLAB_WORKLOADS_FIO_PROFILES_H_
#define STORLAB_WORKLOADS_FIO_PROFILES_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/status.h"
#include "workloads/fio/job_file.h"

namespace storlab::fio {

// The sections `--profile=NAME` adds: a global section, then the profile's
// jobs. `host_mem_bytes` is the simulated host's memory (fio's $mb_memory
// is the machine's). An unknown name is fio's "profile 'NAME' not found";
// act is an error saying why it is not modelled.
Result<std::vector<RawSection>> ProfileSections(std::string_view name, uint64_t host_mem_bytes);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_PROFILES_H_
