// fio's trim verify list (verify_trims.h).
#include "workloads/fio/verify_trims.h"

namespace storlab::fio {

void VerifyTrims::Configure(uint64_t seed, int64_t percentage, uint64_t backlog, int64_t batch) {
  rng_ = Taus88(seed);
  percentage_ = percentage;
  backlog_ = backlog;
  batch_opt_ = static_cast<uint64_t>(batch);
}

// trim.c io_u_should_trim(): r <= rand_max / 100 * trim_percentage.
bool VerifyTrims::Draw() {
  if (!percentage_) return false;
  const uint32_t r = rng_.Next();
  return r <= static_cast<uint64_t>(UINT32_MAX / 100) * static_cast<uint64_t>(percentage_);
}

void VerifyTrims::Add(std::vector<VerifyPiece>& hist, size_t i) {
  hist[i].trim_listed = true;
  list_.push_back(i);
  ++entries_;
}

void VerifyTrims::Remove(VerifyPiece& p) {
  if (!p.trim_listed) return;
  p.trim_listed = false;
  --entries_;
}

// io_u.c check_get_trim(): a batch under way goes on; a new one starts when
// io_hist_len is a multiple of trim_backlog and the last I/O was no read,
// with trim_backlog_batch (or trim_backlog) trims still to come after the
// one it makes now.
bool VerifyTrims::Due(size_t hist_len, bool last_was_read) {
  if (!backlog_ || !entries_) return false;
  if (batch_) {
    --batch_;
    return true;
  }
  if (hist_len % backlog_ != 0 || last_was_read) return false;
  batch_ = batch_opt_ ? batch_opt_ : backlog_;
  return true;
}

size_t VerifyTrims::Pop(std::vector<VerifyPiece>& hist) {
  while (!hist[list_.front()].trim_listed) list_.pop_front();  // left the list earlier
  const size_t i = list_.front();
  list_.pop_front();
  Remove(hist[i]);
  return i;
}

}  // namespace storlab::fio
