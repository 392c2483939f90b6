#include "sim/devices/ssd_flash.h"

#include <algorithm>
#include <cmath>

namespace storlab {

SsdFlashArray::SsdFlashArray(const SsdConfig& c)
    : dies_(c.dies()),
      planes_(c.planes),
      page_size_(c.page_size),
      units_div_(uint64_t{c.dies()} * c.planes),
      dies_div_(c.dies()),
      channels_div_(c.channels),
      channel_time_(c.channel_bytes_per_s),
      read_time_(c.read_time),
      slc_read_time_(c.slc_read_time),
      program_time_(c.program_time),
      slc_program_time_(c.slc_program_time),
      plane_free_(static_cast<size_t>(c.dies()) * c.planes),
      channel_(c.channels),
      next_die_(std::min(c.dies() - 1, static_cast<uint32_t>(c.stripe_start * c.dies()))),
      program_jitter_(c.seed, "flash/program", c.program_jitter),
      paid_(c.dies()) {}

Nanos SsdFlashArray::ReadPage(Nanos now, uint64_t page, uint64_t bytes, bool slc, Nanos ready) {
  // Read unit u: die u % dies, plane u / dies; die d sits on channel
  // d % channels, so consecutive pages go to different channels first.
  const uint64_t u = units_div_.Mod(page);
  const auto die = static_cast<uint32_t>(dies_div_.Mod(u));
  const auto plane = static_cast<uint32_t>(dies_div_.Div(u));
  Nanos& free = plane_free_[static_cast<size_t>(die) * planes_ + plane];
  const Nanos t = slc ? slc_read_time_ : read_time_;
  const Nanos end = Max(ready, free) + t;
  free = end;
  die_busy_ += t;
  return channel_[channels_div_.Mod(die)].Reserve(now, end, channel_time_(bytes));
}

Nanos SsdFlashArray::ReadMapPage(Nanos now, uint64_t segment, Nanos ready) {
  // The needed entries are a small part of the page: move 4 KiB of it.
  return ReadPage(now, segment, std::min<uint64_t>(4096, page_size_), true, ready);
}

Nanos SsdFlashArray::Installment(uint32_t die) const {
  const Nanos o = owed(die);
  if (o <= Nanos(0)) return Nanos(0);
  // At least one program's worth, or a quarter of a large debt, so a lump of
  // GC work is spread over the next few programs rather than stalling one.
  return Min(o, Max(program_time_, o / 4));
}

Nanos SsdFlashArray::Program(Nanos now, uint64_t bytes, bool slc, Nanos ready) {
  const uint32_t die = NextDie();
  const Nanos in_controller =
      channel_[channels_div_.Mod(die)].Reserve(now, ready, channel_time_(bytes));
  const Nanos pay = Installment(die);
  paid_[die] += pay;
  paid_total_ += pay;
  const Nanos start = Max(in_controller, Max(die_free(die), now) + pay);
  Nanos t = slc ? slc_program_time_ : program_time_;
  if (const double j = program_jitter_.Next(); j != 0) {
    t = t + Nanos(std::llround(j * static_cast<double>(t.count())));
  }
  HoldDie(die, start + t);
  die_busy_ += t + pay;
  return start + t;
}

Nanos SsdFlashArray::ProgramMapPage(Nanos now, uint64_t segment) {
  const uint32_t die = static_cast<uint32_t>(segment % dies_);
  return Occupy(now, die, now, slc_program_time_);
}

Nanos SsdFlashArray::Occupy(Nanos now, uint32_t die, Nanos ready, Nanos t) {
  const Nanos end = Max(Max(ready, now), die_free(die)) + t;
  HoldDie(die, end);
  die_busy_ += t;
  return end;
}

Nanos SsdFlashArray::WorkOff(Nanos now, Nanos quantum) {
  Nanos last = now;
  for (uint32_t d = 0; d < dies_; ++d) {
    const Nanos pay = Min(owed(d), quantum);
    if (pay <= Nanos(0)) continue;
    paid_[d] += pay;
    paid_total_ += pay;
    const Nanos end = Max(die_free(d), now) + pay;
    HoldDie(d, end);
    die_busy_ += pay;
    last = Max(last, end);
  }
  return last;
}

Nanos SsdFlashArray::die_free(uint32_t die) const {
  const Nanos* p = &plane_free_[static_cast<size_t>(die) * planes_];
  return *std::max_element(p, p + planes_);
}

void SsdFlashArray::HoldDie(uint32_t die, Nanos t) {
  Nanos* p = &plane_free_[static_cast<size_t>(die) * planes_];
  std::fill(p, p + planes_, t);
}

void SsdFlashArray::Reset() {
  std::fill(plane_free_.begin(), plane_free_.end(), Nanos(0));
  for (auto& c : channel_) c.Reset();
  next_die_ = 0;
}

}  // namespace storlab
