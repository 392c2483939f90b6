// The table of fio options `storlab sim` understands (options.h): one entry
// per option, with fio's own help texts, and the lookup by name or alias.
#include <utility>

#include "workloads/fio/block_sizes.h"
#include "workloads/fio/options.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {
namespace {

using O = JobOptions;

// The help texts are fio's own (options.c), so `--cmdhelp` reads the same.
std::vector<OptionDef> MakeTable() {
  std::vector<OptionDef> t;
  auto add = [&](OptionDef d) { t.push_back(std::move(d)); };
  add({.name = "name", .type = OptType::kString, .target = &O::name, .help = "Name of this job"});
  add({.name = "description",
       .type = OptType::kString,
       .target = &O::description,
       .help = "Text job description"});
  add({.name = "rw",
       .alias = "readwrite",
       .type = OptType::kEnum,
       .target = &O::rw,
       .def = "read",
       .values = {{"read", "Sequential read"},
                  {"write", "Sequential write"},
                  {"trim", "Sequential trim"},
                  {"randread", "Random read"},
                  {"randwrite", "Random write"},
                  {"randtrim", "Random trim"},
                  {"rw", "Sequential read and write mix"},
                  {"readwrite", "Sequential read and write mix"},
                  {"randrw", "Random read and write mix"},
                  {"trimwrite", "Trim and write mix, trims preceding writes"},
                  {"randtrimwrite", "Randomly trim and write"}},
       .help = "IO direction"});
  add({.name = "rwmixread",
       .type = OptType::kInt,
       .target = &O::rwmixread,
       .def = "50",
       .min = 0,
       .max = 100,
       .help = "Percentage of mixed workload that is reads"});
  add({.name = "rwmixwrite",
       .type = OptType::kInt,
       .target = &O::rwmixread,
       .def = "50",
       .min = 0,
       .max = 100,
       .help = "Percentage of mixed workload that is writes",
       .inverse = true});
  add({.name = "bs",
       .alias = "blocksize",
       .type = OptType::kSizeDirs,
       .target = &O::bs,
       .def = "4096",
       .min = 1,
       .max = int64_t{1} << 30,
       .help = "Block size unit"});
  add({.name = "ba",
       .alias = "blockalign",
       .type = OptType::kSizeDirs,
       .target = &O::ba,
       .min = 1,
       .max = int64_t{1} << 30,
       .help = "IO block offset alignment"});
  add({.name = "bsrange",
       .alias = "blocksize_range",
       .type = OptType::kString,
       .target = &O::bsrange,
       .help = "Set block size range (in more detail than bs)",
       .check = CheckBsrange});
  add({.name = "bssplit",
       .type = OptType::kString,
       .target = &O::bssplit,
       .help = "Set a specific mix of block sizes",
       .check = CheckBssplit});
  add({.name = "size",
       .type = OptType::kSize,
       .target = &O::size,
       .min = 1,
       .help = "Total size of device or files (N% of the file system also works)"});
  add({.name = "filesize",
       .type = OptType::kSize,
       .target = &O::filesize,
       .min = 1,
       .help = "Size of individual files"});
  // filesetup.c get_start_offset(): the job's I/O starts offset +
  // subjob_number * offset_increment into each file (job_spec.cc).
  add({.name = "offset",
       .alias = "fileoffset",
       .type = OptType::kSize,
       .target = &O::offset,
       .def = "0",
       .help = "Start IO from this offset"});
  add({.name = "offset_increment",
       .type = OptType::kSize,
       .target = &O::offset_increment,
       .def = "0",
       .help = "What is the increment from one offset to the next"});
  add({.name = "io_size",
       .alias = "io_limit",
       .type = OptType::kSize,
       .target = &O::io_size,
       .min = 1,
       .help = "Total size of I/O to be performed"});
  add({.name = "number_ios",
       .type = OptType::kInt,
       .target = &O::number_ios,
       .def = "0",
       .min = 0,
       .help = "Force job completion after this number of IOs"});
  add({.name = "create_only",
       .type = OptType::kBool,
       .target = &O::create_only,
       .def = "0",
       .help = "Only perform file creation phase"});
  add({.name = "bs_unaligned",
       .alias = "blocksize_unaligned",
       .type = OptType::kSet,
       .target = &O::bs_unaligned,
       .help = "Don't sector align IO buffer sizes (sizes drawn from bsrange/bssplit)"});
  add({.name = "nrfiles",
       .alias = "nr_files",
       .type = OptType::kInt,
       .target = &O::nrfiles,
       .def = "1",
       .min = 1,
       .max = INT32_MAX,  // fio's has no limit; job_spec.cc caps all jobs' files
       .help = "Split job workload between this number of files"});
  add({.name = "numjobs",
       .type = OptType::kInt,
       .target = &O::numjobs,
       .def = "1",
       .min = 1,
       .max = 4096,
       .help = "Duplicate this job this many times"});
  add({.name = "iodepth",
       .type = OptType::kInt,
       .target = &O::iodepth,
       .def = "1",
       .min = 1,
       .max = 65536,
       .help = "Number of IO buffers to keep in flight"});
  add({.name = "ioengine",
       .type = OptType::kEnum,
       .target = &O::ioengine,
       .def = "psync",
       .values = {{"sync", "Use read/write"},
                  {"psync", "Use pread/pwrite"},
                  {"libaio", "Linux native asynchronous IO"},
                  {"io_uring", "Fast Linux native aio"},
                  {"posixaio", "POSIX asynchronous IO"},
                  {"null", "Testing engine (no I/O is done)"},
                  // engines/null.c built with g++ -DFIO_EXTERNAL_ENGINE: the
                  // same null_data calls behind a C++ class, the same flags
                  // (FIO_DISKLESSIO | FIO_FAKEIO).
                  {"cpp_null", "Testing engine (no I/O is done), built as C++"},
                  {"vsync", "Use readv/writev"},
                  {"pvsync", "Use preadv/pwritev"},
                  {"pvsync2", "Use preadv2/pwritev2"},
                  {"mmap", "Memory mapped IO"},
                  {"splice", "splice/vmsplice based IO"},
                  {"sg", "SCSI generic v3 IO", false},
                  {"falloc", "fallocate() specified range"},
                  {"ftruncate", "ftruncate() the file to each offset"},
                  {"filecreate", "Create empty files (time the open)"},
                  {"filestat", "stat() files (time the call)"},
                  {"filedelete", "Delete files (time the unlink)"},
                  {"io_uring_cmd", "Pass-through NVMe commands over io_uring"},
                  {"libzbc", "Zoned block device through libzbc", false},
                  {"xnvme", "NVMe through xNVMe", false},
                  {"libblkio", "Block device through libblkio", false}},
       .help = "IO engine to use"});
  add({.name = "direct",
       .type = OptType::kBool,
       .target = &O::direct,
       .def = "0",
       .help = "Use O_DIRECT IO (negates buffered)"});
  add({.name = "buffered",
       .type = OptType::kBool,
       .target = &O::direct,
       .def = "1",
       .help = "Use buffered IO (negates direct)",
       .inverse = true});
  add({.name = "runtime",
       .alias = "timeout",
       .type = OptType::kTime,
       .target = &O::runtime,
       .def = "0",
       .unit = TimeUnit::kSeconds,
       .help = "Stop workload when this amount of time has passed"});
  add({.name = "time_based",
       .type = OptType::kSet,
       .target = &O::time_based,
       .help = "Keep running until runtime/timeout is met"});
  add({.name = "ramp_time",
       .type = OptType::kTime,
       .target = &O::ramp_time,
       .def = "0",
       .unit = TimeUnit::kSeconds,
       .help = "Ramp up time before measuring performance"});
  add({.name = "startdelay",
       .type = OptType::kTime,
       .target = &O::startdelay,
       .def = "0",
       .unit = TimeUnit::kSeconds,
       .help = "Only start job when this period has passed"});
  add({.name = "loops",
       .alias = "loop",
       .type = OptType::kInt,
       .target = &O::loops,
       .def = "1",
       .min = 1,
       .max = 1 << 30,
       .help = "Number of times to run the job"});
  add({.name = "end_fsync",
       .type = OptType::kBool,
       .target = &O::end_fsync,
       .def = "0",
       .help = "Include fsync at the end of job"});
  add({.name = "fsync",
       .type = OptType::kInt,
       .target = &O::fsync_blocks,
       .def = "0",
       .min = 0,
       .max = 1 << 30,
       .help = "Issue fsync for writes every given number of blocks"});
  add({.name = "fdatasync",
       .type = OptType::kInt,
       .target = &O::fdatasync_blocks,
       .def = "0",
       .min = 0,
       .max = 1 << 30,
       .help = "Issue fdatasync for writes every given number of blocks"});
  // io_u.c do_sync_file_range(): every N writes, sync_file_range() over
  // what the job wrote to the file (job_spec_fixup.cc parses the flags).
  add({.name = "sync_file_range",
       .type = OptType::kString,
       .target = &O::sync_file_range,
       .help = "Use sync_file_range()"});
  add({.name = "directory",
       .type = OptType::kString,
       .target = &O::directory,
       .help = "Directory to store files in"});
  add({.name = "filename",
       .type = OptType::kString,
       .target = &O::filename,
       .help = "File(s) to use for the workload"});
  add({.name = "overwrite",
       .type = OptType::kBool,
       .target = &O::overwrite,
       .def = "0",
       .help = "When writing, set whether to overwrite current data"});
  add({.name = "invalidate",
       .type = OptType::kBool,
       .target = &O::invalidate,
       .def = "1",
       .help = "Invalidate buffer/page cache prior to running job"});
  add({.name = "group_reporting",
       .type = OptType::kSet,
       .target = &O::group_reporting,
       .help = "Do reporting on a per-group basis"});
  add({.name = "randrepeat",
       .type = OptType::kBool,
       .target = &O::randrepeat,
       .def = "1",
       .help = "Use repeatable random IO pattern"});
  add({.name = "randseed",
       .type = OptType::kInt,
       .target = &O::randseed,
       .min = 1,
       .help = "Set the random generator seed value"});
  add({.name = "random_generator",
       .type = OptType::kEnum,
       .target = &O::random_generator,
       .def = "tausworthe",
       .values = {{"tausworthe", "Strong Tausworthe generator"},
                  {"lfsr", "Variable length LFSR"},
                  {"tausworthe64", "64-bit Tausworthe variant"}},
       .help = "Type of random number generator to use"});
  add({.name = "norandommap",
       .type = OptType::kSet,
       .target = &O::norandommap,
       .help = "Accept potential duplicate random blocks"});
  AddVerifyTypeOption(&t);  // verify=, in fio's order (option_table_verify.cc)
  AddThinktimeOptions(&t);  // thinktime and its kin, in fio's order (option_table_think.cc)
  add({.name = "rate",
       .type = OptType::kSizeDirs,
       .target = &O::rate,
       .def = "0",
       .help = "Set bandwidth rate"});
  add({.name = "rate_iops",
       .type = OptType::kSizeDirs,
       .target = &O::rate_iops,
       .def = "0",
       .help = "Limit IO used to this number of IO operations/sec"});
  // backend.c usec_for_io(): the n-th I/O at n * size / rate, or, poisson,
  // each after an exponentially distributed gap of mean size / rate.
  add({.name = "rate_process",
       .type = OptType::kEnum,
       .target = &O::rate_process,
       .def = "linear",
       .values = {{"linear", "Linear rate of IO"}, {"poisson", "Rate follows Poisson process"}},
       .help = "What process controls how rated IO is managed"});
  // backend.c __check_min_rate(): after a 2 s settle, a job below these
  // over a ratecycle fails with EIO.
  add({.name = "rate_min",
       .alias = "ratemin",
       .type = OptType::kSizeDirs,
       .target = &O::rate_min,
       .def = "0",
       .help = "Job must meet this rate or it will be shutdown"});
  add({.name = "rate_iops_min",
       .type = OptType::kSizeDirs,
       .target = &O::rate_iops_min,
       .def = "0",
       .help = "Job must meet this rate or it will be shut down"});
  add({.name = "ratecycle",
       .alias = "rate_cycle",
       .type = OptType::kInt,
       .target = &O::ratecycle,
       .def = "1000",
       .min = 1,
       .help = "Window average for rate limits (msec)"});
  // backend.c / libfio.c fio_terminate_threads(): when a job ends, which
  // others end with it.
  add({.name = "exitall",
       .type = OptType::kSet,
       .target = &O::exitall,
       .help = "Terminate all jobs when one exits"});
  add({.name = "exit_what",
       .type = OptType::kEnum,
       .target = &O::exit_what,
       .def = "group",
       .values = {{"group", "exit_all=1 default behaviour"},
                  {"stonewall", "quit all currently running jobs; continue with next stonewall"},
                  {"all", "Quit everything"}},
       .help = "Fine-grained control for exitall"});
  add({.name = "exitall_on_error",
       .type = OptType::kSet,
       .target = &O::exitall_on_error,
       .help = "Terminate all jobs when one exits in error"});
  add({.name = "stonewall",
       .alias = "wait_for_previous",
       .type = OptType::kSet,
       .target = &O::stonewall,
       .help = "Insert a hard barrier between this job and previous"});
  add({.name = "new_group",
       .type = OptType::kSet,
       .target = &O::new_group,
       .help = "Mark the start of a new group (for reporting)"});
  add({.name = "thread",
       .type = OptType::kSet,
       .target = &O::thread,
       .help = "Use threads instead of processes"});
  AddStatOptions(&t);
  AddIoOptions(&t);
  AddFileOptions(&t);
  AddIologOptions(&t);
  AddVerifyOptions(&t);
  AddBufferOptions(&t);
  AddErrorOptions(&t);
  AddSyncOptions(&t);
  AddFlowOptions(&t);
  AddPrioOptions(&t);
  AddReportOptions(&t);
  AddCpuOptions(&t);
  return t;
}

}  // namespace

const std::vector<OptionDef>& OptionTable() {
  static const std::vector<OptionDef> kTable = MakeTable();
  return kTable;
}

bool TakesNoNextWord(const OptionDef& d) {
  return d.type == OptType::kSet || d.type == OptType::kLog;
}

const OptionDef* FindOption(std::string_view name) {
  for (const auto& d : OptionTable()) {
    if (d.name == name || (!d.alias.empty() && d.alias == name)) return &d;
  }
  return nullptr;
}

}  // namespace storlab::fio
