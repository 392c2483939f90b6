#include "sim/layers/cache/cache_memory.h"

#include <cstring>

namespace storlab {

CacheMemory::CacheMemory(Engine& engine, std::string name, uint64_t capacity,
                         uint32_t logical_block, Nanos latency, double bytes_per_s, bool keeps_data)
    : Node(engine, std::move(name)),
      latency_(latency),
      bytes_per_s_(bytes_per_s),
      data_(keeps_data) {
  geometry_.capacity = capacity;
  geometry_.logical_block = logical_block;
  geometry_.physical_block = logical_block;
  caps_.volatile_cache = true;
  caps_.queue_depth = 65536;
}

void CacheMemory::DoSubmit(Request req) {
  Nanos t = engine_.now();
  if (req.op == Op::kRead || req.op == Op::kWrite) {
    Nanos start = Max(t, busy_until_);
    busy_until_ = start + (bytes_per_s_ > 0 ? TransferTime(req.length, bytes_per_s_) : Nanos(0));
    t = busy_until_;
  }
  engine_.At(t + latency_, [this, r = std::move(req)]() mutable {
    switch (r.op) {
      case Op::kRead:
        if (r.data) {
          std::memset(r.data, 0, r.length);
          data_.Patch(r.offset, r.length, r.data);
        }
        break;
      case Op::kWrite:
        data_.Put(r.offset, r.length, r.data);
        break;
      case Op::kTrim:
      case Op::kWriteZeroes:
        data_.PutZeros(r.offset, r.length);
        break;
      case Op::kFlush:
        break;
    }
    r.done(Status());
  });
}

void CacheMemory::OnPowerCut() {
  data_.Clear();
  busy_until_ = engine_.now();
}

}  // namespace storlab
