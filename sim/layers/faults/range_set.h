// RangeSet: a set of byte ranges (merged, sorted), for the faults layer's
// bad sectors. Not thread-safe; a value type.
#ifndef STORLAB_SIM_LAYERS_FAULTS_RANGE_SET_H_
#define STORLAB_SIM_LAYERS_FAULTS_RANGE_SET_H_

#include <cstdint>
#include <map>

namespace storlab {

class RangeSet {
 public:
  // Adds [off, off+len). REQUIRES: len > 0.
  void Add(uint64_t off, uint64_t len);
  // Removes [off, off+len) (a healed range).
  void Remove(uint64_t off, uint64_t len);
  // Whether any byte of [off, off+len) is in the set.
  bool Intersects(uint64_t off, uint64_t len) const;
  void Clear() { ranges_.clear(); }
  bool empty() const { return ranges_.empty(); }
  uint64_t bytes() const;
  const std::map<uint64_t, uint64_t>& ranges() const { return ranges_; }  // start -> end

 private:
  std::map<uint64_t, uint64_t> ranges_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_FAULTS_RANGE_SET_H_
