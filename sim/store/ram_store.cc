#include "sim/store/ram_store.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "sim/all_zero.h"
#include "sim/stat_table.h"
#include "sim/state_coding.h"
#include "sim/store/stream_copy.h"

namespace storlab {

uint8_t* RamStore::Add(uint64_t idx) {
  uint8_t* bytes = arena_.New();
  try {
    pages_.Put(idx, bytes);
  } catch (...) {
    arena_.Delete(bytes);
    throw;
  }
  return bytes;
}

void RamStore::AppendStats(std::vector<StatValue>& out) const {
  Store::AppendStats(out);
  out.push_back({"mapped_bytes", static_cast<double>(arena_.mapped() * kPage), kBytes});
  out.push_back({"small_chunks", static_cast<double>(arena_.chunk_count(false)), kCount});
  out.push_back({"huge_chunks", static_cast<double>(arena_.chunk_count(true)), kCount});
  if (arena_.chunks() != PageArena::Chunks::kCheaper) return;
  out.push_back({"prefetched_chunks", static_cast<double>(arena_.prefetched()), kCount});
  out.push_back({"prefetch_missed", static_cast<double>(arena_.prefetch_missed()), kCount});
  for (const bool huge : {false, true}) {
    const double ns = arena_.chooser().cost_ns(huge);
    if (ns >= 0)
      out.push_back({huge ? "huge_chunk_ns_per_page" : "small_chunk_ns_per_page", ns, kNanos});
  }
}

void RamStore::Release(uint64_t idx) { arena_.Delete(pages_.Erase(idx)); }

// Each page a read meets costs dependent cache misses when cold (its
// leaf's table slot, its leaf entry, its first bytes): over 8 GiB written
// at random, a 1 MiB read's 256 pages one after another. Fetched ahead in
// passes, the misses of a pass overlap.
void RamStore::Prefetch(uint64_t begin, uint64_t end) const {
  for (uint64_t i = begin; i < end; i += PageIndex::kLeafPages) pages_.PrefetchLeaf(i);
  pages_.PrefetchLeaf(end - 1);
  for (uint64_t i = begin; i < end; ++i) {
    if (const uint8_t* bytes = pages_.Find(i)) __builtin_prefetch(bytes);
  }
}

Status RamStore::Read(uint64_t off, uint64_t len, uint8_t* out) const {
  if (len > 2 * kPage) Prefetch(off / kPage, (off + len - 1) / kPage + 1);
  while (len > 0) {
    uint64_t idx = off / kPage, in_page = off % kPage;
    uint64_t n = std::min(len, kPage - in_page);
    const uint8_t* bytes = pages_.Find(idx);
    if (bytes == nullptr) {
      std::memset(out, 0, n);
    } else {
      std::memcpy(out, bytes + in_page, n);
    }
    off += n;
    len -= n;
    out += n;
  }
  return Status();
}

void RamStore::CopyIn(uint8_t* page, uint64_t in_page, const uint8_t* in, uint64_t n) {
  if (stream_writes_ && n == kPage) {
    StreamPage(page, in);
  } else {
    std::memcpy(page + in_page, in, n);
  }
}

Status RamStore::Write(uint64_t off, uint64_t len, const uint8_t* in) {
  static_assert(kPage == kStreamPage);
  while (len > 0) {
    uint64_t idx = off / kPage, in_page = off % kPage;
    uint64_t n = std::min(len, kPage - in_page);
    uint8_t* page = pages_.Find(idx);
    if (page == nullptr) {
      if (!AllZero(in, n)) {
        uint8_t* bytes = Add(idx);
        if (n < kPage) std::memset(bytes, 0, kPage);
        CopyIn(bytes, in_page, in, n);
      }
    } else {
      CopyIn(page, in_page, in, n);
      if (n < kPage ? AllZero(page, kPage) : AllZero(in, n)) Release(idx);
    }
    off += n;
    len -= n;
    in += n;
  }
  if (stream_writes_) StreamFence();  // a few cycles when nothing streamed
  return Status();
}

Status RamStore::Zero(uint64_t off, uint64_t len) {
  while (len > 0) {
    uint64_t idx = off / kPage, in_page = off % kPage;
    uint64_t n = std::min(len, kPage - in_page);
    uint8_t* page = pages_.Find(idx);
    if (page != nullptr) {
      if (n == kPage) {
        Release(idx);
      } else {
        std::memset(page + in_page, 0, n);
        if (AllZero(page, kPage)) Release(idx);
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
  pages_.ForEach([&](uint64_t i, const uint8_t*) { idx.push_back(i); });
  std::sort(idx.begin(), idx.end());  // a deterministic file
  w.U64(idx.size());
  for (uint64_t i : idx) {
    w.U64(i);
    w.Raw(pages_.Find(i), kPage);
  }
  return Status();
}

Status RamStore::RestoreState(StateReader& r) {
  if (pages_.size() != 0) return Status::Internal("RamStore::RestoreState: not empty");
  const uint64_t n = r.Count(kPage);
  for (uint64_t k = 0; k < n && r.ok(); ++k) {
    const uint64_t i = r.U64();
    uint8_t* bytes = arena_.New();
    r.Raw(bytes, kPage);
    if (!r.ok()) {
      arena_.Delete(bytes);
      break;
    }
    uint8_t* before = pages_.Put(i, bytes);
    if (before != nullptr) arena_.Delete(before);  // a page listed twice: the last wins
  }
  return r.status();
}

}  // namespace storlab
