// A job's options resolved into what the runner reads (JobSpec's derived
// fields): directions, block sizes, the rw postfix, the engine, buffers,
// rates and the random generator, as fio's init.c fixup_options() and
// options.c's callbacks do. Internal to BuildJobs (job_spec.cc).
#ifndef STORLAB_WORKLOADS_FIO_JOB_SPEC_FIXUP_H_
#define STORLAB_WORKLOADS_FIO_JOB_SPEC_FIXUP_H_

#include <string>
#include <vector>

#include "sim/status.h"
#include "workloads/fio/job_spec.h"

namespace storlab::fio {

// Fills j's derived fields from j.opts; `where` names the job file section
// in errors; fio's warnings go to `notes`. Errors name the job and option.
Status FixupJob(JobSpec& j, const std::string& where, std::vector<std::string>* notes);

// sync_file_range= and the engine flags uncached, nowait, force_async and thp
// (job_spec_flags.cc); `job` prefixes errors ("FILE:LINE: job 'x': ").
Status FixupEngineFlags(JobSpec& j, const std::string& job);

// Each file's size and the job's io_size for its count of files (size=
// spread over them, or filesize= each; io_size=: that much I/O, wrapping
// over the files); 0 when neither is given (the files' own sizes).
void SizeFiles(JobSpec& j);

// init.c fixup_options()'s verify part, once j.verify is known: the
// verify_interval writes use (a factor of every write size).
void FixupVerify(JobSpec& j);

// verify_offset: the header must fit in its block at that offset (fio does
// not check, and swaps it past the block's end). Errors name the job.
Status CheckVerifyOffset(const JobSpec& j, const std::string& where);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_JOB_SPEC_FIXUP_H_
