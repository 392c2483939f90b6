// The option table's entries for when a job starts and what its files are
// called, how they are set up and allocated (options.h): wait_for,
// filename_format, fallocate, fill_device, openfiles, unlink,
// create_serialize, allow_file_create, file_append, offset_align and the
// filestat engine's stat_type. Help
// texts are fio 3.33's own (options.c, engines/fileoperations.c).
#include "workloads/fio/file_service.h"
#include "workloads/fio/options.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {

void AddFileOptions(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  // backend.c run_threads(): a job is not started while waitee_running()
  // finds a job of that name (or a numjobs clone of it) not yet exited;
  // init.c wait_for_ok() checks the name (job_spec.cc).
  add({.name = "wait_for",
       .type = OptType::kString,
       .target = &O::wait_for,
       .help = "Name of the job this one wants to wait for before starting"});
  // init.c make_filename(): the name of each file a job makes up when it
  // is given no filename= (job_spec.cc FormatFilename).
  add({.name = "filename_format",
       .type = OptType::kString,
       .target = &O::filename_format,
       .def = "$jobname.$jobnum.$filenum",
       .help = "Override default $jobname.$jobnum.$filenum naming"});
  // filesetup.c fallocate_file(), called by extend_file() when a file is
  // laid out (fio_run.cc); Linux's default is native (os-linux.h
  // FIO_HAVE_DEFAULT_FALLOCATE). keep (FALLOC_FL_KEEP_SIZE: blocks past
  // the file's size) has no counterpart in the simulated file system.
  add({.name = "fallocate",
       .type = OptType::kEnum,
       .target = &O::fallocate,
       .def = "native",
       .values = {{"none", "Do not pre-allocate space"},
                  {"native", "Use native pre-allocation if possible"},
                  {"posix", "Use posix_fallocate()"},
                  {"keep", "Use fallocate(..., FALLOC_FL_KEEP_SIZE, ...)"},
                  {"truncate", "Truncate file to final size instead of allocating"},
                  {"0", "Alias for 'none'"},
                  {"1", "Alias for 'posix'"}},
       .help = "Whether pre-allocation is performed when laying out files"});
  // init.c fixup_options(): without size=, fill_device makes it -1ULL;
  // filesetup.c skips fallocate_file() and the ftruncate(), a layout stops
  // quietly at ENOSPC; backend.c break_on_this_error() and do_io() end the
  // job at a write's ENOSPC (or EDQUOT) and clear the error (fio_run.cc,
  // job_runner_errors.cc).
  add({.name = "fill_device",
       .alias = "fill_fs",
       .type = OptType::kBool,
       .target = &O::fill_device,
       .def = "0",
       .help = "Write until an ENOSPC error occurs"});
  // io_u.c get_next_file_rr(): at most this many files open at once; a
  // file is closed when its pass is done (job_runner_offset.cc). init.c
  // fixup_options(): 0 or more than nrfiles means nrfiles.
  add({.name = "openfiles",
       .type = OptType::kInt,
       .target = &O::openfiles,
       .min = 0,
       .max = INT32_MAX,
       .help = "Number of files to keep open at the same time"});
  // filesetup.c close_and_free_files(): the job's regular files are
  // unlinked when it has completed (job_runner.cc Finish()).
  // options.c str_opendir_cb(), filesetup.c add_dir_files() (opendir.h:
  // the simulated file system's files, found when the run is prepared).
  add({.name = "opendir",
       .type = OptType::kString,
       .target = &O::opendir,
       .help = "Recursively add files from this directory and down"});
  add({.name = "unlink",
       .type = OptType::kBool,
       .target = &O::unlink,
       .def = "0",
       .help = "Unlink created files after job has completed"});
  // backend.c run_threads(): with 1 every job's setup_files() runs before
  // any job starts, one after another; with 0 each job sets its files up
  // itself, in thread_main() (fio_run_setup.cc).
  add({.name = "create_serialize",
       .type = OptType::kBool,
       .target = &O::create_serialize,
       .def = "1",
       .help = "Serialize creation of job files"});
  // filesetup.c extend_file(): open() without O_CREAT; a missing file
  // fails the job's setup (fio_run_setup.cc).
  add({.name = "allow_file_create",
       .type = OptType::kBool,
       .target = &O::allow_file_create,
       .def = "1",
       .help = "Permit fio to create files, if they don't exist"});
  // filesetup.c get_start_offset(): a regular file's I/O starts at its
  // size; extend_file() neither unlinks nor lays it out again.
  add({.name = "file_append",
       .type = OptType::kBool,
       .target = &O::file_append,
       .def = "0",
       .help = "IO will start at the end of the file(s)"});
  // filesetup.c file_open(): the file is opened with O_SYNC or O_DSYNC;
  // each write is made durable before it returns (job_runner_io.cc).
  add({.name = "sync",
       .type = OptType::kEnum,
       .target = &O::sync,
       .def = "none",
       .values = {{"none", "No O_SYNC or O_DSYNC"},
                  {"0", "Alias for 'none'"},
                  {"sync", "Use O_SYNC"},
                  {"1", "Alias for 'sync'"},
                  {"dsync", "Use O_DSYNC"}},
       .help = "Use synchronous write IO"});
  // init.c fixup_options(): O_ATOMIC implies O_DIRECT. Linux has no
  // O_ATOMIC: fio 3.33 opens with O_DIRECT|040000000, a bit open(2)
  // ignores, so the I/O is direct I/O (job_spec_fixup.cc).
  add({.name = "atomic",
       .type = OptType::kBool,
       .target = &O::atomic,
       .def = "0",
       .help = "Use Atomic IO with O_DIRECT (implies O_DIRECT)"});
  // get_start_offset(): a percentage offset is aligned up to this.
  add({.name = "offset_align",
       .type = OptType::kSize,
       .target = &O::offset_align,
       .def = "0",
       .min = 0,
       .help = "Start IO from this offset alignment"});
  // backend.c thread_main(): before each loop after the first,
  // unlink_all_files(); the next open creates a write job's files afresh
  // and fails a read job's with ENOENT (job_runner_fileops.cc).
  add({.name = "unlink_each_loop",
       .type = OptType::kBool,
       .target = &O::unlink_each_loop,
       .def = "0",
       .help = "Unlink created files after each loop in a job has completed"});
  // filesetup.c lock_file(), unlock_file() (file_locks.h, job_runner_io.cc).
  // ioengines.c td_io_open_file(): posix_fadvise() on each file opened,
  // by default RANDOM for a random job and SEQUENTIAL for a sequential one
  // (the page cache's read-ahead: PageCache::Advise()).
  add({.name = "fadvise_hint",
       .type = OptType::kEnum,
       .target = &O::fadvise_hint,
       .def = "1",
       .values = {{"0", "Don't issue fadvise/madvise"},
                  {"1", "Advise using fio IO pattern"},
                  {"random", "Advise using FADV_RANDOM"},
                  {"sequential", "Advise using FADV_SEQUENTIAL"}},
       .help = "Use fadvise() to advise the kernel on IO pattern"});
  add({.name = "lockfile",
       .type = OptType::kEnum,
       .target = &O::lockfile,
       .def = "none",
       .values = {{"none", "No file locking"},
                  {"exclusive", "Exclusive file lock"},
                  {"readwrite", "Read vs write lock"}},
       .help = "Lock file when doing IO to it"});
  // backend.c check_mount_writes(): fio refuses a writing job over a
  // mounted block device unless this is set. The simulated host's block
  // devices (its /dev/ files) are the stack's own, never mounted: accepted,
  // with nothing to refuse.
  add({.name = "allow_mounted_write",
       .type = OptType::kBool,
       .target = &O::allow_mounted_write,
       .def = "0",
       .help = "Allow writes to a mounted partition"});
  // backend.c thread_main(): pre_read_files() reads each file's I/O
  // range before the job's epoch (job_runner_fileops.cc).
  add({.name = "pre_read",
       .type = OptType::kBool,
       .target = &O::pre_read,
       .def = "0",
       .help = "Pre-read files before starting official testing"});
  // io_u.c __get_next_file(): which file the next I/O goes to
  // (file_service.h, job_runner_offset.cc).
  add({.name = "file_service_type",
       .type = OptType::kString,
       .target = &O::file_service_type,
       .def = "roundrobin",
       .help =
           "How to select which file to service next: random[:N], roundrobin[:N], "
           "sequential, zipf[:theta[:center]], pareto[:h[:center]], normal|gauss[:dev[:center]]",
       .check = CheckFileService});
  // engines/fileoperations.c: which call filestat makes (all three cost
  // the same in the simulated file system).
  add({.name = "stat_type",
       .type = OptType::kEnum,
       .target = &O::stat_type,
       .def = "stat",
       .values = {{"stat", "Use stat(2)"},
                  {"lstat", "Use lstat(2)"},
                  {"statx", "Use statx(2) if exists"}},
       .help = "Specify stat system call type to measure lookup/getattr performance"});
}

}  // namespace storlab::fio
