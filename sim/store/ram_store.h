// RamStore: a sparse in-memory store, allocated page by page on first write.
//
// Pages are 4 KiB. A page that becomes all zeros is released, so write-zeroes
// and trim give memory back. Not thread-safe.
#ifndef STORLAB_SIM_STORE_RAM_STORE_H_
#define STORLAB_SIM_STORE_RAM_STORE_H_

#include <memory>
#include <unordered_map>

#include "sim/store/store.h"

namespace storlab {

class RamStore : public Store {
 public:
  static constexpr uint64_t kPage = 4096;

  RamStore() = default;
  RamStore(const RamStore&) = delete;
  RamStore& operator=(const RamStore&) = delete;

  bool keeps_data() const override { return true; }
  Status Read(uint64_t off, uint64_t len, uint8_t* out) const override;
  Status Write(uint64_t off, uint64_t len, const uint8_t* in) override;
  Status Zero(uint64_t off, uint64_t len) override;
  uint64_t allocated_bytes() const override { return pages_.size() * kPage; }
  // The pages in ascending order: index, then 4 KiB.
  Status SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;

 private:
  using Page = std::unique_ptr<uint8_t[]>;
  std::unordered_map<uint64_t, Page> pages_;  // page index -> 4 KiB
};

}  // namespace storlab

#endif  // STORLAB_SIM_STORE_RAM_STORE_H_
