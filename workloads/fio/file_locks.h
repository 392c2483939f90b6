// lockfile=exclusive (fio 3.33 filesetup.c lock_file(), unlock_file(),
// file_lookup_open()): one lock per file, shared by every job that opens
// it by name (fio hands the first opener's f->lock to the others through
// its file hash). fio takes it in td_io_prep() and drops it when the
// engine's queue call returns, so it covers the whole I/O where the call
// does the I/O (the synchronous engines, and any engine's trim); a job
// that finds it held waits, and waiters take it in turn.
// lockfile=readwrite takes nothing in fio 3.33 (lock_file() tests f->lock,
// which only exclusive sets), and so here.
// Not thread-safe; lives on the engine's thread.
#ifndef STORLAB_WORKLOADS_FIO_FILE_LOCKS_H_
#define STORLAB_WORKLOADS_FIO_FILE_LOCKS_H_

#include <cstdint>
#include <deque>
#include <map>

#include "sim/callback.h"

namespace storlab::fio {

class FileLocks {
 public:
  FileLocks() = default;
  FileLocks(const FileLocks&) = delete;
  FileLocks& operator=(const FileLocks&) = delete;

  // fio_sem_down(): true when the lock on `file` was free and is now the
  // caller's; else `granted` runs when it is handed over.
  bool Acquire(uint32_t file, Callback<void()> granted);
  // fio_sem_up(): the next waiter, if any, gets the lock.
  // REQUIRES: the caller holds it.
  void Release(uint32_t file);

 private:
  struct Lock {
    bool held = false;
    std::deque<Callback<void()>> waiters;
  };
  std::map<uint32_t, Lock> locks_;  // by the file system's file id
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_FILE_LOCKS_H_
