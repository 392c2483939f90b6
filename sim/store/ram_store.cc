#include "sim/store/ram_store.h"

#include <algorithm>
#include <cstring>

namespace storlab {
namespace {

bool AllZero(const uint8_t* p, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i)
    if (p[i] != 0) return false;
  return true;
}

}  // namespace

Status RamStore::Read(uint64_t off, uint64_t len, uint8_t* out) const {
  while (len > 0) {
    uint64_t idx = off / kPage, in_page = off % kPage;
    uint64_t n = std::min(len, kPage - in_page);
    auto it = pages_.find(idx);
    if (it == pages_.end()) {
      std::memset(out, 0, n);
    } else {
      std::memcpy(out, it->second.get() + in_page, n);
    }
    off += n;
    len -= n;
    out += n;
  }
  return Status();
}

Status RamStore::Write(uint64_t off, uint64_t len, const uint8_t* in) {
  while (len > 0) {
    uint64_t idx = off / kPage, in_page = off % kPage;
    uint64_t n = std::min(len, kPage - in_page);
    auto it = pages_.find(idx);
    if (it == pages_.end()) {
      if (!AllZero(in, n)) {
        Page p(new uint8_t[kPage]());
        std::memcpy(p.get() + in_page, in, n);
        pages_.emplace(idx, std::move(p));
      }
    } else {
      std::memcpy(it->second.get() + in_page, in, n);
      if (n < kPage ? AllZero(it->second.get(), kPage) : AllZero(in, n)) pages_.erase(it);
    }
    off += n;
    len -= n;
    in += n;
  }
  return Status();
}

Status RamStore::Zero(uint64_t off, uint64_t len) {
  while (len > 0) {
    uint64_t idx = off / kPage, in_page = off % kPage;
    uint64_t n = std::min(len, kPage - in_page);
    auto it = pages_.find(idx);
    if (it != pages_.end()) {
      if (n == kPage) {
        pages_.erase(it);
      } else {
        std::memset(it->second.get() + in_page, 0, n);
        if (AllZero(it->second.get(), kPage)) pages_.erase(it);
      }
    }
    off += n;
    len -= n;
  }
  return Status();
}

}  // namespace storlab
