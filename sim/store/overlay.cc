#include "sim/store/overlay.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "sim/state_coding.h"

namespace storlab {

template <typename Fn>
void Overlay::ForEachPageSpan(uint64_t off, uint64_t len, Fn&& fn) {
  uint64_t done = 0;
  while (done < len) {
    uint64_t pos = off + done;
    uint64_t idx = pos / kPage;
    unsigned first = static_cast<unsigned>((pos % kPage) / kSector);
    uint64_t n = std::min<uint64_t>(len - done, kPage - pos % kPage);
    fn(idx, first, static_cast<unsigned>(n / kSector), done);
    done += n;
  }
}

template <typename Fn>
void Overlay::ForEachHeldSpan(uint64_t off, uint64_t len, Fn&& fn) const {
  if (pages_.empty() || len == 0) return;
  const uint64_t first_page = off / kPage, last_page = (off + len - 1) / kPage;
  auto visit = [&](uint64_t idx, const Page& p) {
    uint64_t lo = std::max(off, idx * kPage), hi = std::min(off + len, (idx + 1) * kPage);
    fn(idx, p, static_cast<unsigned>((lo % kPage) / kSector),
       static_cast<unsigned>((hi - lo) / kSector), lo - off);
  };
  if (last_page - first_page + 1 <= pages_.size()) {
    for (uint64_t idx = first_page; idx <= last_page; ++idx) {
      if (const Page* p = pages_.Find(idx)) visit(idx, *p);
    }
    return;
  }
  // A huge range over a small overlay (trim of a whole device): walk the map.
  std::vector<uint64_t> idx;
  pages_.ForEach([&](uint64_t i, const Page&) {
    if (i >= first_page && i <= last_page) idx.push_back(i);
  });
  std::sort(idx.begin(), idx.end());
  for (uint64_t i : idx) visit(i, *pages_.Find(i));
}

Overlay::Page& Overlay::Hold(uint64_t idx) {
  auto [p, inserted] = pages_.TryEmplace(idx);
  if (inserted) p->data = arena_.New();
  return *p;
}

void Overlay::Forget(uint64_t idx, Page& p) {
  arena_.Delete(p.data);
  pages_.Erase(idx);
}

void Overlay::Put(uint64_t off, uint64_t len, const uint8_t* data) {
  if (!keeps_data_ || data == nullptr) return;
  ForEachPageSpan(off, len, [&](uint64_t idx, unsigned first, unsigned count, uint64_t at) {
    Page& p = Hold(idx);
    std::memcpy(p.data + first * kSector, data + at, count * kSector);
    uint8_t m = SpanMask(first, count);
    held_sectors_ += static_cast<uint64_t>(std::popcount(static_cast<uint8_t>(m & ~p.mask)));
    p.mask |= m;
  });
}

void Overlay::PutZeros(uint64_t off, uint64_t len) {
  if (!keeps_data_) return;
  ForEachPageSpan(off, len, [&](uint64_t idx, unsigned first, unsigned count, uint64_t) {
    Page& p = Hold(idx);
    std::memset(p.data + first * kSector, 0, count * kSector);
    uint8_t m = SpanMask(first, count);
    held_sectors_ += static_cast<uint64_t>(std::popcount(static_cast<uint8_t>(m & ~p.mask)));
    p.mask |= m;
  });
}

void Overlay::Patch(uint64_t off, uint64_t len, uint8_t* buf) const {
  if (buf == nullptr) return;
  ForEachHeldSpan(
      off, len, [&](uint64_t, const Page& p, unsigned first, unsigned count, uint64_t at) {
        // One copy per run of held sectors (a whole page is one).
        const unsigned end = first + count;
        for (unsigned s = first; s < end;) {
          if (!(p.mask & (1u << s))) {
            ++s;
            continue;
          }
          unsigned e = s + 1;
          while (e < end && (p.mask & (1u << e))) ++e;
          std::memcpy(buf + at + (s - first) * kSector, p.data + s * kSector, (e - s) * kSector);
          s = e;
        }
      });
}

bool Overlay::Covers(uint64_t off, uint64_t len) const {
  if (!keeps_data_ || len == 0) return false;
  if ((off + len - 1) / kPage - off / kPage + 1 > pages_.size()) return false;
  bool all = true;
  ForEachPageSpan(off, len, [&](uint64_t idx, unsigned first, unsigned count, uint64_t) {
    const Page* p = pages_.Find(idx);
    uint8_t m = SpanMask(first, count);
    if (p == nullptr || (p->mask & m) != m) all = false;
  });
  return all;
}

std::vector<std::pair<uint64_t, uint64_t>> Overlay::Runs(uint64_t off, uint64_t len) const {
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  ForEachHeldSpan(off, len,
                  [&](uint64_t idx, const Page& p, unsigned first, unsigned count, uint64_t) {
                    for (unsigned s = first; s < first + count; ++s) {
                      if (!(p.mask & (1u << s))) continue;
                      uint64_t pos = idx * kPage + s * kSector;
                      if (!runs.empty() && runs.back().first + runs.back().second == pos) {
                        runs.back().second += kSector;
                      } else {
                        runs.emplace_back(pos, kSector);
                      }
                    }
                  });
  return runs;
}

Status Overlay::DrainTo(Store& store, uint64_t off, uint64_t len) {
  if (pages_.empty()) return Status();
  for (auto [pos, n] : Runs(off, len)) {
    std::vector<uint8_t> buf(n);
    Patch(pos, n, buf.data());
    RETURN_IF_ERROR(store.Write(pos, n, buf.data()));
  }
  Erase(off, len);
  return Status();
}

std::vector<uint64_t> Overlay::HeldPages() const {
  std::vector<uint64_t> idx;
  idx.reserve(pages_.size());
  pages_.ForEach([&](uint64_t i, const Page&) { idx.push_back(i); });
  std::sort(idx.begin(), idx.end());  // a deterministic order
  return idx;
}

void Overlay::SaveState(StateWriter& w) const {
  const std::vector<uint64_t> held = HeldPages();
  w.U64(held.size());
  for (uint64_t i : held) {
    const Page& p = *pages_.Find(i);
    w.U64(i);
    w.U64(p.mask);
    w.Raw(p.data, kPage);
  }
}

Status Overlay::RestoreState(StateReader& r) {
  if (!pages_.empty()) return Status::Internal("Overlay::RestoreState: not empty");
  const uint64_t n = r.Count(kPage);
  for (uint64_t k = 0; k < n && r.ok(); ++k) {
    const uint64_t idx = r.U64();
    const uint64_t mask = r.U64();
    if (mask == 0 || mask > 0xff) r.Fail("an overlay page's sector mask out of range");
    if (!r.ok()) break;
    if (!keeps_data_) {  // a timing-only overlay holds nothing
      std::array<uint8_t, kPage> skip;
      r.Raw(skip.data(), kPage);
      continue;
    }
    // SaveState lists each page once: a page listed twice is damage.
    if (pages_.Find(idx) != nullptr) {
      r.Fail("an overlay page listed twice");
      break;
    }
    Page& p = Hold(idx);
    r.Raw(p.data, kPage);
    if (!r.ok()) {
      Forget(idx, p);
      break;
    }
    p.mask = static_cast<uint8_t>(mask);
    held_sectors_ += static_cast<uint64_t>(std::popcount(p.mask));
  }
  return r.status();
}

Status Overlay::DrainAllTo(Store& store) {
  for (uint64_t i : HeldPages()) RETURN_IF_ERROR(DrainTo(store, i * kPage, kPage));
  return Status();
}

void Overlay::Erase(uint64_t off, uint64_t len) {
  std::vector<std::pair<uint64_t, uint8_t>> clear;  // page, sectors to drop
  ForEachHeldSpan(off, len,
                  [&](uint64_t idx, const Page&, unsigned first, unsigned count, uint64_t) {
                    clear.emplace_back(idx, SpanMask(first, count));
                  });
  for (auto [idx, m] : clear) {
    Page& p = *pages_.Find(idx);
    held_sectors_ -= static_cast<uint64_t>(std::popcount(static_cast<uint8_t>(p.mask & m)));
    p.mask &= static_cast<uint8_t>(~m);
    if (p.mask == 0) Forget(idx, p);
  }
}

}  // namespace storlab
