// RaidLayout: where md puts each chunk of an array on its members.
//
// Levels 0, 5 and 6 stripe chunks across members; 5 and 6 rotate P (and Q)
// with md's default left-symmetric layout (drivers/md/raid5.c,
// raid5_compute_sector, ALGORITHM_LEFT_SYMMETRIC): stripe s has P on member
// n-1-(s mod n), Q (RAID6) on the next member, and data chunk d on the d-th
// member after them, wrapping. RAID1 mirrors the whole array on every
// member; RAID10 uses md's default "near" layout (raid10.c,
// raid10_find_phys): the k copies of array chunk c sit at positions
// c*k .. c*k+k-1 counted across the members row by row.
//
// Member offsets start at 0 (md's data_offset and superblock are not
// modelled). A plain value type, thread-compatible.
#ifndef STORLAB_SIM_LAYERS_RAID_RAID_LAYOUT_H_
#define STORLAB_SIM_LAYERS_RAID_RAID_LAYOUT_H_

#include <cstdint>

namespace storlab {

enum class RaidLevel : uint8_t { kRaid0, kRaid1, kRaid5, kRaid6, kRaid10 };
const char* RaidLevelName(RaidLevel level);

class RaidLayout {
 public:
  // REQUIRES: member_size is a multiple of chunk; members and copies are
  // valid for the level (see MakeRaid).
  RaidLayout(RaidLevel level, int members, uint64_t chunk, uint64_t member_size, int copies);

  RaidLevel level() const { return level_; }
  int members() const { return members_; }
  uint64_t chunk() const { return chunk_; }
  uint64_t member_size() const { return member_size_; }
  int copies() const { return copies_; }
  uint64_t capacity() const { return capacity_; }
  bool striped() const;                                         // levels 0, 5, 6
  bool mirrored() const;                                        // levels 1, 10
  int parity_disks() const;                                     // 0, 1 (RAID5) or 2 (RAID6)
  int data_disks() const { return members_ - parity_disks(); }  // striped levels
  uint64_t stripe_bytes() const { return chunk_ * static_cast<uint64_t>(data_disks()); }
  uint64_t stripes() const { return member_size_ / chunk_; }

  // Striped levels. Members of stripe s: P, Q (-1 when absent), and the
  // member holding data chunk d.
  int PMember(uint64_t stripe) const;
  int QMember(uint64_t stripe) const;
  int DataMember(uint64_t stripe, int d) const;
  // The data index a member holds in stripe s, or -1 for P/Q.
  int DataIndex(uint64_t stripe, int member) const;

  // RAID10: copy j (0 <= j < copies) of array chunk c.
  struct Place {
    int member;
    uint64_t offset;  // of the chunk on the member
  };
  Place Copy(uint64_t chunk_index, int j) const;
  // RAID10: the array chunks stored in member row r (chunks first..last).
  void ChunksInRow(uint64_t row, uint64_t* first, uint64_t* last) const;

 private:
  RaidLevel level_;
  int members_;
  uint64_t chunk_;
  uint64_t member_size_;
  int copies_;
  uint64_t capacity_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_RAID_RAID_LAYOUT_H_
