// Ssd: the write path behind the host interface — buffer admission, program
// units, programs on the dies, and the durability of FLUSH and FUA.
#include <algorithm>

#include "sim/devices/ssd.h"

namespace storlab {

bool Ssd::AdmitWrite(uint32_t slot) {
  const Nanos now = engine_.now();
  SsdCommand& c = queue_.at(slot);
  const Request& r = c.req;
  if (tracer()) buffer_.KeepRanges();  // ProgramDone traces the ranges it makes durable
  // The controller fetches a write's data as buffer space frees: all of it
  // at once when it fits, else one program unit's worth at a time.
  while (c.admitted < r.length) {
    const uint64_t left = r.length - c.admitted;
    const uint64_t n = buffer_.HasRoom(left) ? left : std::min(left, config_.slc_unit_bytes());
    if (!buffer_.HasRoom(n)) return false;
    const uint64_t off = r.offset + c.admitted;
    // The data is in the drive's buffer from here: a unit it joins may be
    // programmed (ProgramDone moves it to the store) before the command
    // completes, when a write is admitted one unit at a time.
    if (r.data) overlay_.Put(off, n, r.data + c.admitted);
    buffer_.Hold(n);
    c.ready = host_.FromHost(now, Max(c.ready, now), n);
    MapLookup(off, n, true, now);
    AddGcWork(ftl_.Write(off, n));
    AppendToUnits(off, n, c.ready);
    c.admitted += n;
  }
  wear_.host_bytes_written += r.length;
  if (r.fua() && config_.flush_programs()) {
    // Durable before completion: program what the buffer holds now.
    if (buffer_.has_open()) CloseUnit();
    WaitDurable(slot, buffer_.last_closed());
  } else {
    FinishAt(c.ready, slot);
  }
  return true;
}

void Ssd::AdmitWaitingWrites() {
  while (!write_waiters_.empty() && AdmitWrite(write_waiters_.front())) {
    write_waiters_.pop_front();
  }
}

void Ssd::AppendToUnits(uint64_t off, uint64_t len, Nanos ready) {
  uint64_t done = 0;
  while (done < len) {
    if (!buffer_.has_open()) OpenUnit();
    const uint64_t n = buffer_.Fill(off + done, len - done, ready);
    slc_.Write(off + done, n, buffer_.open_slc());
    done += n;
    if (buffer_.open_full()) CloseUnit();
  }
}

void Ssd::OpenUnit() {
  const bool slc = TakeSlcRoom();
  if (slc) slc_.Program(config_.slc_unit_bytes());
  buffer_.Open(slc ? config_.slc_unit_bytes() : config_.native_unit_bytes(), slc);
  // A partly filled unit is programmed (padded) after the timeout, so data
  // does not sit in volatile memory while the host pauses.
  const uint64_t seq = buffer_.open_seq();
  unit_timer_ = engine_.After(config_.write_buffer_timeout, [this, seq] {
    unit_timer_ = {};
    if (buffer_.has_open() && buffer_.open_seq() == seq) CloseUnit();
  });
}

void Ssd::CloseUnit() {
  if (unit_timer_) engine_.Cancel(std::exchange(unit_timer_, {}));
  const Nanos now = engine_.now();
  SsdWriteBuffer::Unit& u = buffer_.Close();
  const Nanos end = flash_.Program(now, u.size, u.slc, Max(u.ready, now));
  wear_.nand_bytes_written += u.size;
  const uint64_t seq = u.seq;
  engine_.At(end, [this, seq] { ProgramDone(seq); });
}

void Ssd::ProgramDone(uint64_t seq) {
  SsdWriteBuffer::Unit u = buffer_.Done(seq);
  // The data is on flash now: it moves from the volatile Overlay to the
  // Store. (Newer data for the same range, acknowledged since, moves too:
  // durable early is never wrong.)
  for (const auto& [off, len] : u.ranges) {
    Status st = overlay_.DrainTo(*store_, off, len);
    if (!st.ok() && media_error_.ok()) media_error_ = st;
    TraceDurable(off, len);
  }
  RecordSeries();
  AdmitWaitingWrites();
  ReleaseDurable();
}

void Ssd::WaitDurable(uint32_t slot, uint64_t target) {
  queue_.at(slot).target = target;
  durable_waiters_.push_back(slot);
  ReleaseDurable();
}

void Ssd::ReleaseDurable() {
  while (!durable_waiters_.empty()) {
    const uint32_t slot = durable_waiters_.front();
    SsdCommand& c = queue_.at(slot);
    if (c.target > buffer_.durable_through()) return;
    durable_waiters_.pop_front();
    const Nanos now = engine_.now();
    if (c.target <= committed_through_) {
      // Nothing new since the last commit: done once that commit is.
      FinishAt(Max(Max(c.ready, now), commit_end_), slot);
      continue;
    }
    // Commit the mapping journal: one more program on a die.
    committed_through_ = c.target;
    ++flush_commits_;
    wear_.nand_bytes_written += config_.page_size;
    commit_end_ = flash_.Occupy(now, flash_.NextDie(), c.ready, config_.flush_commit_time);
    FinishAt(commit_end_, slot);
  }
}

void Ssd::AddGcWork(const SsdScaledFtl::Work& w) {
  if (w.copied_bytes == 0 && w.erased_bytes == 0) return;
  wear_.gc_copied_bytes += w.copied_bytes;
  wear_.nand_bytes_written += w.copied_bytes;
  wear_.erased_bytes += w.erased_bytes;
  // A copy reads cell_bits pages per plane and programs them again.
  const double units =
      static_cast<double>(w.copied_bytes) / static_cast<double>(config_.native_unit_bytes());
  const double erases =
      static_cast<double>(w.erased_bytes) / static_cast<double>(config_.block_size);
  const double ns =
      units * static_cast<double>(
                  (config_.read_time * config_.cell_bits + config_.program_time).count()) +
      erases * static_cast<double>(config_.erase_time.count());
  flash_.AddWork(Nanos(static_cast<int64_t>(ns / flash_.dies())));
}

bool Ssd::TakeSlcRoom() {
  if (slc_.OpenHasRoom(config_.slc_unit_bytes())) return true;
  while (!slc_.CanOpen(ftl_.free_user_bytes())) {
    uint32_t victim = 0;
    uint64_t valid = 0;
    if (!slc_.Cheapest(&victim, &valid) || (valid > 0 && valid >= fold_limit_)) return false;
    FoldSlcBlock(victim);
  }
  return true;
}

void Ssd::FoldSlcBlock(uint32_t block) {
  const uint64_t folded = slc_.Reclaim(block);
  wear_.fold_bytes += folded;
  wear_.nand_bytes_written += folded;
  wear_.erased_bytes += config_.block_size;
  const double units =
      static_cast<double>(folded) / static_cast<double>(config_.native_unit_bytes());
  const Nanos per_unit = config_.slc_read_time * config_.cell_bits + config_.program_time;
  const double ns = units * static_cast<double>(per_unit.count()) +
                    static_cast<double>(config_.erase_time.count());
  flash_.AddWork(Nanos(static_cast<int64_t>(ns / flash_.dies())));
}

void Ssd::RecordSeries() {
  const Nanos now = engine_.now();
  slc_series_.Record(now, static_cast<double>(slc_.used()));
  free_series_.Record(now, ftl_.free_block_fraction());
}

}  // namespace storlab
