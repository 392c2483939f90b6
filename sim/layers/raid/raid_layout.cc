#include "sim/layers/raid/raid_layout.h"

namespace storlab {

const char* RaidLevelName(RaidLevel level) {
  switch (level) {
    case RaidLevel::kRaid0:
      return "raid0";
    case RaidLevel::kRaid1:
      return "raid1";
    case RaidLevel::kRaid5:
      return "raid5";
    case RaidLevel::kRaid6:
      return "raid6";
    case RaidLevel::kRaid10:
      return "raid10";
  }
  return "raid?";
}

RaidLayout::RaidLayout(RaidLevel level, int members, uint64_t chunk, uint64_t member_size,
                       int copies)
    : level_(level), members_(members), chunk_(chunk), member_size_(member_size), copies_(copies) {
  const uint64_t n = static_cast<uint64_t>(members);
  switch (level) {
    case RaidLevel::kRaid1:
      copies_ = members;
      capacity_ = member_size;
      break;
    case RaidLevel::kRaid10:
      // md raid10 near layout: (chunks per member * n / k) whole chunks.
      capacity_ = stripes() * n / static_cast<uint64_t>(copies) * chunk;
      break;
    default:
      copies_ = 1;
      capacity_ = stripes() * stripe_bytes();
      break;
  }
}

bool RaidLayout::striped() const { return !mirrored(); }
bool RaidLayout::mirrored() const {
  return level_ == RaidLevel::kRaid1 || level_ == RaidLevel::kRaid10;
}

int RaidLayout::parity_disks() const {
  return level_ == RaidLevel::kRaid5 ? 1 : level_ == RaidLevel::kRaid6 ? 2 : 0;
}

int RaidLayout::PMember(uint64_t stripe) const {
  if (parity_disks() == 0) return -1;
  return members_ - 1 - static_cast<int>(stripe % static_cast<uint64_t>(members_));
}

int RaidLayout::QMember(uint64_t stripe) const {
  if (level_ != RaidLevel::kRaid6) return -1;
  return (PMember(stripe) + 1) % members_;
}

int RaidLayout::DataMember(uint64_t stripe, int d) const {
  if (parity_disks() == 0) return d;
  return (PMember(stripe) + parity_disks() + d) % members_;
}

int RaidLayout::DataIndex(uint64_t stripe, int member) const {
  if (parity_disks() == 0) return member;
  int d = (member - PMember(stripe) - parity_disks()) % members_;
  if (d < 0) d += members_;
  return d < data_disks() ? d : -1;
}

RaidLayout::Place RaidLayout::Copy(uint64_t chunk_index, int j) const {
  const uint64_t n = static_cast<uint64_t>(members_);
  const uint64_t pos = chunk_index * static_cast<uint64_t>(copies_) + static_cast<uint64_t>(j);
  return {static_cast<int>(pos % n), pos / n * chunk_};
}

void RaidLayout::ChunksInRow(uint64_t row, uint64_t* first, uint64_t* last) const {
  const uint64_t n = static_cast<uint64_t>(members_), k = static_cast<uint64_t>(copies_);
  *first = row * n / k;
  *last = (row * n + n - 1) / k;
}

}  // namespace storlab
