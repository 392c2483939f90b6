// NullStore: keeps no data. Reads return zeros; writes are dropped. For
// timing-only runs, where a 16 TB disk must cost no memory.
#ifndef STORLAB_SIM_STORE_NULL_STORE_H_
#define STORLAB_SIM_STORE_NULL_STORE_H_

#include <cstring>

#include "sim/store/store.h"

namespace storlab {

class NullStore : public Store {
 public:
  bool keeps_data() const override { return false; }
  Status Read(uint64_t off, uint64_t len, uint8_t* out) const override {
    std::memset(out, 0, len);
    return Status();
  }
  Status Write(uint64_t, uint64_t, const uint8_t*) override { return Status(); }
  Status Zero(uint64_t, uint64_t) override { return Status(); }
  uint64_t allocated_bytes() const override { return 0; }
  Status SaveState(StateWriter&) const override { return Status(); }
  Status RestoreState(StateReader&) override { return Status(); }
};

}  // namespace storlab

#endif  // STORLAB_SIM_STORE_NULL_STORE_H_
