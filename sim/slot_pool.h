// SlotPool<T>: a table of slots addressed by a small index, with a free
// list, so that an engine event or a completion can name an entry with a
// uint32_t instead of carrying it. Acquire() reuses the most recently
// released slot (last in, first out), else appends one; a reused slot's T
// is as Release() left it, so the caller resets what it needs. Indices stay
// valid until Clear(); references into the table do not survive Acquire().
//
// Used by the port's requests in flight (sim/port.h) and the SSD's command
// slots (sim/devices/ssd_queue.h). Not thread-safe.
#ifndef STORLAB_SIM_SLOT_POOL_H_
#define STORLAB_SIM_SLOT_POOL_H_

#include <cstdint>
#include <vector>

namespace storlab {

template <typename T>
class SlotPool {
 public:
  SlotPool() = default;
  SlotPool(const SlotPool&) = delete;
  SlotPool& operator=(const SlotPool&) = delete;

  // A free slot's index.
  uint32_t Acquire() {
    if (free_.empty()) {
      slots_.emplace_back();
      return static_cast<uint32_t>(slots_.size() - 1);
    }
    const uint32_t slot = free_.back();
    free_.pop_back();
    return slot;
  }
  // REQUIRES: `slot` was acquired and not released since.
  void Release(uint32_t slot) { free_.push_back(slot); }

  T& operator[](uint32_t slot) { return slots_[slot]; }
  const T& operator[](uint32_t slot) const { return slots_[slot]; }
  // Slots made so far, free or not: indices are 0 .. size() - 1.
  uint32_t size() const { return static_cast<uint32_t>(slots_.size()); }
  // Forgets every slot.
  void Clear() {
    slots_.clear();
    free_.clear();
  }

 private:
  std::vector<T> slots_;
  std::vector<uint32_t> free_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_SLOT_POOL_H_
