// ExtentSet: the member requests of one phase of an array operation.
//
// An operation adds the byte ranges it needs on each member (possibly
// overlapping: the same parity rows for two pieces of a read); Finalize()
// merges them into one extent per contiguous run on each member, as the
// block layer's plug merging would, and gives each extent a buffer when the
// run keeps data. At() then finds the bytes of any added range. Not
// thread-safe; owned by one operation.
#ifndef STORLAB_SIM_LAYERS_RAID_EXTENT_SET_H_
#define STORLAB_SIM_LAYERS_RAID_EXTENT_SET_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace storlab {

class ExtentSet {
 public:
  struct Extent {
    int member = 0;
    uint64_t offset = 0;
    uint64_t length = 0;
    std::unique_ptr<uint8_t[]> data;  // nullptr without data
    bool failed = false;              // set when the member request failed
  };

  explicit ExtentSet(int members) : ranges_(static_cast<size_t>(members)) {}
  ExtentSet(const ExtentSet&) = delete;
  ExtentSet& operator=(const ExtentSet&) = delete;

  // REQUIRES: not finalized; len > 0.
  void Add(int member, uint64_t off, uint64_t len);
  // Merges the ranges; allocates a buffer per extent when `with_data`.
  void Finalize(bool with_data);
  // Drops everything (for a new plan).
  void Reset();

  bool empty() const { return extents_.empty(); }
  std::vector<Extent>& extents() { return extents_; }
  const std::vector<Extent>& extents() const { return extents_; }
  // The bytes of member `m` at `off` (within an added range), or nullptr
  // without data. REQUIRES: finalized.
  uint8_t* At(int member, uint64_t off);
  // Whether the extent holding member `m`'s byte `off` failed.
  bool Failed(int member, uint64_t off) const;
  // Total bytes of all extents.
  uint64_t bytes() const;

 private:
  const Extent* Find(int member, uint64_t off) const;

  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> ranges_;  // per member
  std::vector<Extent> extents_;                                     // by member, then offset
  bool finalized_ = false;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_RAID_EXTENT_SET_H_
