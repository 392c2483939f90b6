// write_iolog: a job's I/O recorded in fio 3.33's iolog version 3 format,
// as fio's iolog.c writes it (init_iolog_write(), log_file(), log_io_u()):
//
//   fio version 3 iolog
//   0 FILE add                       every file, when the job is set up
//   0 FILE open                      when the file is opened
//   USEC FILE read|write OFFSET LEN  each I/O when it is queued
//   USEC FILE sync OFFSET 0          fsync (fio prints the io_u's stale
//                                    offset: the job's last I/O's here)
//   USEC FILE close
//
// USEC: simulated microseconds since the job started. The lines are kept in
// memory and appended to the file when the run is done (fio opens it with
// "a", so a second run appends a second log). As in fio, read_iolog
// overrides write_iolog (fixup_options(): the runner still records, for
// tests, but nothing is written). Not thread-safe.
#ifndef STORLAB_WORKLOADS_FIO_IOLOG_WRITE_H_
#define STORLAB_WORKLOADS_FIO_IOLOG_WRITE_H_

#include <cstdint>
#include <string>

#include "sim/status.h"

namespace storlab::fio {

class IologWriter {
 public:
  explicit IologWriter(std::string path);

  // `what`: "add", "open" or "close".
  void File(uint64_t usec, const std::string& name, const char* what);
  // `ddir`: fio's io_ddir_name(): "read", "write", "trim", "sync", "datasync".
  void Io(uint64_t usec, const std::string& name, const char* ddir, uint64_t offset,
          uint64_t length);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  // Whether the file's directory can be written to, before a run.
  Status CheckWritable() const;
  // Appends the log to its file; an error names the file.
  Status Write() const;

 private:
  std::string path_;
  std::string text_;
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_IOLOG_WRITE_H_
