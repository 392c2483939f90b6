// lockfile=exclusive's per-file locks (file_locks.h).
#include "workloads/fio/file_locks.h"

#include <utility>

namespace storlab::fio {

bool FileLocks::Acquire(uint32_t file, Callback<void()> granted) {
  Lock& l = locks_[file];
  if (!l.held) {
    l.held = true;
    return true;
  }
  l.waiters.push_back(std::move(granted));
  return false;
}

void FileLocks::Release(uint32_t file) {
  Lock& l = locks_[file];
  if (l.waiters.empty()) {
    l.held = false;
    return;
  }
  Callback<void()> next = std::move(l.waiters.front());
  l.waiters.pop_front();
  next();  // held on, by the waiter
}

}  // namespace storlab::fio
