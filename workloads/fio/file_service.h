// fio's file_service_type: which of a job's files its next I/O goes to
// (io_u.c __get_next_file(), get_next_file_rr(), get_next_file_rand()),
// as fio 3.33 parses it (options.c str_fst_cb): roundrobin[:N] and
// random[:N] keep a file for N I/Os, sequential keeps it until it is done,
// zipf/pareto/normal (gauss) draw files from a distribution over nrfiles
// << 10 ranges, unscattered (init.c: zipf_disable_hash()), so file 0's
// neighbourhood is hot — and their files are never done: a file at its
// end starts again (fio_file_reset()). JobRunner draws them
// (job_runner_offset.cc). Thread-safe (pure functions).
#ifndef STORLAB_WORKLOADS_FIO_FILE_SERVICE_H_
#define STORLAB_WORKLOADS_FIO_FILE_SERVICE_H_

#include <cstdint>
#include <string_view>

#include "sim/status.h"
#include "workloads/fio/rand_dist.h"

namespace storlab::fio {

struct FileService {
  enum class Kind { kRoundRobin, kSequential, kRandom, kDist };
  Kind kind = Kind::kRoundRobin;
  uint32_t nr = 1;  // I/Os per pick (fio's file_service_nr)
  RandDist dist;    // kDist: zipf, pareto or normal
  // FIO_FSERVICE_SHIFT: each file is 1 << 10 ranges of the distribution.
  static constexpr int kShift = 10;
};

// Parses a file_service_type value; errors say what is wrong, with fio's
// limits.
Result<FileService> ParseFileService(std::string_view value);
// For the option table: the same check, as a Status.
Status CheckFileService(std::string_view value);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_FILE_SERVICE_H_
