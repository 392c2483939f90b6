// Trace replay input: fio's read_iolog files, read as fio 3.33 reads them
// before a job starts (iolog.c init_iolog() -> init_iolog_read() and
// read_iolog() for the text formats, blktrace.c init_blktrace_read() and
// read_blktrace() for blktrace binary files). The entries keep fio's
// io_piece fields: direction, file, offset (after replay_scale and
// replay_align), length, and the delay in microseconds since the previous
// entry (delay_since_ttime(), scaled by replay_time_scale; 0 with
// replay_no_stall).
//
//   iolog v2   "fio version 2 iolog", then "FILE ACTION [OFFSET LENGTH]";
//              a "wait" entry sleeps until OFFSET ms after the start.
//   iolog v3   "fio version 3 iolog", each line led by a timestamp in us.
//   blktrace   blk_io_trace records (blktrace_api.h; byte order detected
//              from the magic, as is_blktrace() does): queue events become
//              reads, writes, flushes and discards, sectors of 512 bytes.
//
// Unlike fio, which logs and skips a line it cannot parse, a bad entry is an
// error naming the trace file and line (or record): a simulation should not
// silently replay a different workload. Thread-compatible.
#ifndef STORLAB_WORKLOADS_FIO_IOLOG_READ_H_
#define STORLAB_WORKLOADS_FIO_IOLOG_READ_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/status.h"
#include "workloads/fio/job_spec.h"
#include "workloads/fio/options.h"

namespace storlab::fio {

struct ReplayEntry {
  enum Kind : uint8_t { kRead, kWrite, kTrim, kSync, kDatasync, kWait, kFileAction };
  Kind kind = kRead;
  uint32_t file = 0;  // index into ReplayTrace::files
  uint64_t offset = 0;
  uint64_t length = 0;
  uint64_t delay_us = 0;  // kWait: ms since the job's start (fio's quirk)
  uint32_t where = 0;     // line (text) or record (blktrace) number, from 1
};

struct ReplayTrace {
  std::string path;
  bool blktrace = false;
  int version = 0;                 // 2 or 3 for text logs
  std::vector<std::string> files;  // as named in the trace (or replay_redirect)
  std::vector<ReplayEntry> entries;
  uint64_t ios[2] = {0, 0};     // reads, writes
  uint64_t max_bs[2] = {0, 0};  // largest read, write
  uint64_t bytes = 0;           // fio's o.size: the bytes of every entry
  uint64_t trims = 0, syncs = 0;
  uint32_t depth = 0;  // blktrace: the queue depth it shows (fio's max_depth)
  // Per file: the end of its farthest I/O, and the entry that reaches it.
  std::vector<uint64_t> extent;
  std::vector<uint32_t> extent_where;
};

// Reads `path` (a file of the machine storlab runs on) with the job's
// replay_* options.
Result<ReplayTrace> LoadReplayTrace(const std::string& path, const JobOptions& o);

// The same from bytes already read (`path` names them in errors).
Result<ReplayTrace> ParseReplayTrace(const std::string& path, std::string_view data,
                                     const JobOptions& o);

// blktrace_read.cc: whether `data` starts with a blk_io_trace record
// (fio's is_blktrace()), and its parser.
bool IsBlktrace(std::string_view data, bool* need_swap);
Status ParseBlktrace(std::string_view data, bool need_swap, const JobOptions& o, ReplayTrace* t);
// replay_skip=read,write,trim,sync as fio's str_replay_skip_cb() reads it:
// bit 1 << ReplayEntry::kRead, kWrite, kTrim, kSync for each kind named.
Result<uint32_t> ParseReplaySkip(std::string_view value);

// iolog_spec.cc: loads the job's read_iolog (a ':' list picks one per
// clone, fio's get_name_by_idx()) and makes the job replay it: its files,
// directions and largest block sizes (fio's td_ddir and max_bs), the queue
// depth a blktrace shows when iodepth= is not given, file sizes from the
// farthest I/O unless size=/filesize= are given. `where` prefixes errors.
Status ApplyReplay(JobSpec* j, const std::string& where, std::vector<std::string>* notes);
// The trace's files fit a file system of `capacity` bytes (an error names
// the entry that goes past it).
Status CheckReplayFits(const JobSpec& j, uint64_t capacity);

// blktrace_merge.cc: merge_blktrace_file= as fio 3.33 runs it for a job
// replaying `names` (read_iolog's list), before the trace is loaded; notes
// get fio's messages. CheckMergeList() checks a merge_blktrace_scalars= or
// merge_blktrace_iters= value (fio's FIO_OPT_FLOAT_LIST: up to 20 floats).
Status MergeBlktraces(const JobOptions& o, const std::vector<std::string>& names,
                      const std::string& job, std::vector<std::string>* notes);
Status CheckMergeList(std::string_view value);

// Shared by both parsers: fio's delay_since_ttime(), ipo_bytes_align().
uint64_t DelaySince(uint64_t* last_ttime, uint64_t ttime, const JobOptions& o);
uint64_t ReplayOffset(uint64_t offset, const JobOptions& o);
void NoteExtent(ReplayTrace* t, const ReplayEntry& e);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_IOLOG_READ_H_
