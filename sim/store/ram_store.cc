#include "sim/store/ram_store.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "sim/state_coding.h"

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

Status RamStore::SaveState(StateWriter& w) const {
  std::vector<uint64_t> idx;
  idx.reserve(pages_.size());
  for (const auto& [i, p] : pages_) idx.push_back(i);
  std::sort(idx.begin(), idx.end());  // a deterministic file
  w.U64(idx.size());
  for (uint64_t i : idx) {
    w.U64(i);
    w.Raw(pages_.at(i).get(), kPage);
  }
  return Status();
}

Status RamStore::RestoreState(StateReader& r) {
  if (!pages_.empty()) return Status::Internal("RamStore::RestoreState: not empty");
  const uint64_t n = r.Count(kPage);
  for (uint64_t k = 0; k < n && r.ok(); ++k) {
    const uint64_t i = r.U64();
    Page p(new uint8_t[kPage]);
    r.Raw(p.get(), kPage);
    if (r.ok()) pages_.emplace(i, std::move(p));
  }
  return r.status();
}

}  // namespace storlab
