// opendir=DIR (options.c str_opendir_cb(), filesetup.c add_dir_files() and
// recurse_dir()): every regular file found below DIR becomes one of the
// job's files. fio scans the machine's tree when it parses the job, before
// any job lays a file out; storlab scans the simulated host's file system
// at the same point, when the run is prepared (fio_run.cc), so the files it
// finds are those the host starts with: --prefill's aged files
// (.prefill/NNNNNN) and files a --state directory restored. Directories are
// not modelled (extent_fs.h: names are plain strings), so a file is below
// DIR when its name starts with DIR/ (DIR "." : every relative name).
// Thread-compatible.
#ifndef STORLAB_WORKLOADS_FIO_OPENDIR_H_
#define STORLAB_WORKLOADS_FIO_OPENDIR_H_

#include <string>
#include <vector>

#include "sim/fs/extent_fs.h"
#include "sim/status.h"
#include "workloads/fio/job_spec.h"

namespace storlab::fio {

// Gives `spec` (opts.opendir set) the files below the directory, in name
// order (fio: readdir's order), after filename='s own files if it has any
// (then in place of the nrfiles default names), and sizes them as
// BuildJobs() does for the new count. fio's "fio: opendir added N files"
// goes to *messages for a section's first job. An error when no file is
// below it (fio: opendir() fails with ENOENT, or adds none).
Status ResolveOpendir(JobSpec* spec, const ExtentFs& fs, std::vector<std::string>* messages);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_OPENDIR_H_
