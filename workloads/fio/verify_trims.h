// fio's trim verify (trim.c, io_u.c check_get_trim(), iolog.c
// log_io_piece()): of the blocks a job writes with verify=, a share
// (trim_percentage) goes on a trim list as each is written; with
// trim_backlog=N, whenever the blocks written and not yet verified come to
// a multiple of N (and the last I/O was not a read), the job trims the
// oldest of the list, trim_backlog_batch of them (default N) and one more,
// before its next I/O. The verify pass then reads a trimmed block back and
// wants zeros (trim_verify_zero=1, fio's default), or skips it (0).
//
// VerifyTrims is the list and its counters; the blocks are the job's
// verify history (VerifyPiece, by index), each saying whether it is on the
// list. Not thread-safe; one per JobRunner.
#ifndef STORLAB_WORKLOADS_FIO_VERIFY_TRIMS_H_
#define STORLAB_WORKLOADS_FIO_VERIFY_TRIMS_H_

#include <cstdint>
#include <deque>
#include <vector>

#include "workloads/fio/fio_rand.h"
#include "workloads/fio/verify.h"

namespace storlab::fio {

class VerifyTrims {
 public:
  VerifyTrims() = default;  // trim_percentage=0: puts nothing on the list
  VerifyTrims(const VerifyTrims&) = delete;
  VerifyTrims& operator=(const VerifyTrims&) = delete;

  // `seed`: the job's (fio's trim_state, FIO_RAND_TRIM_OFF); `percentage`
  // 0-100, `backlog` (0: never trims), `batch` (0: backlog).
  void Configure(uint64_t seed, int64_t percentage, uint64_t backlog, int64_t batch);

  // trim.c io_u_should_trim(): whether the block written now goes on the
  // list (one draw per block written, none with trim_percentage=0).
  bool Draw();
  // iolog.c log_io_piece(): entry `i` of `hist` goes on the list.
  void Add(std::vector<VerifyPiece>& hist, size_t i);
  // trim.h remove_trim_entry(): `p` leaves the list (verified, or
  // superseded by a later write of its block).
  void Remove(VerifyPiece& p);
  // io_u.c check_get_trim(): whether the next I/O is a trim of the list,
  // `hist_len` the entries not yet verified (fio's io_hist_len).
  // REQUIRES: Pop() follows each true answer.
  bool Due(size_t hist_len, bool last_was_read);
  // trim.c get_next_trim(): the oldest entry on the list, which leaves it.
  // REQUIRES: entries() > 0.
  size_t Pop(std::vector<VerifyPiece>& hist);
  // fio's td->trim_entries.
  uint64_t entries() const { return entries_; }

 private:
  Taus88 rng_{0};
  int64_t percentage_ = 0;
  uint64_t backlog_ = 0;
  uint64_t batch_opt_ = 0;
  uint64_t batch_ = 0;  // fio's td->trim_batch
  std::deque<size_t> list_;
  uint64_t entries_ = 0;
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_VERIFY_TRIMS_H_
