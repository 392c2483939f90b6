#include "sim/fs/extent_fs.h"

#include <algorithm>
#include <cassert>

#include "sim/round.h"

namespace storlab {

ExtentFs::ExtentFs(uint64_t capacity, uint32_t block_size)
    : capacity_(RoundDown(capacity, block_size)), block_(block_size), free_bytes_(capacity_) {
  assert(block_size > 0);
  if (capacity_ > 0) free_[0] = capacity_;
  files_.emplace_back();  // id 0: no file
}

uint32_t ExtentFs::Lookup(std::string_view name) const {
  auto it = names_.find(name);
  return it == names_.end() ? 0 : it->second;
}

uint32_t ExtentFs::Create(std::string_view name) {
  if (uint32_t id = Lookup(name)) return id;
  uint32_t id = static_cast<uint32_t>(files_.size());
  files_.emplace_back();
  File& f = files_[id];
  f.id = id;
  f.name = std::string(name);
  names_.emplace(f.name, id);
  return id;
}

std::vector<uint32_t> ExtentFs::ids() const {
  std::vector<uint32_t> out;
  for (const File& f : files_) {
    if (f.id) out.push_back(f.id);
  }
  return out;
}

void ExtentFs::Remove(uint32_t id) {
  if (id == 0 || id >= files_.size() || files_[id].id == 0) return;
  File& f = files_[id];
  for (const Extent& e : f.extents) Give(e.device_offset, e.length);
  names_.erase(f.name);
  f = File();
}

void ExtentFs::Give(uint64_t dev, uint64_t len) {
  free_bytes_ += len;
  auto next = free_.lower_bound(dev);
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == dev) {
      dev = prev->first;
      len += prev->second;
      free_.erase(prev);
    }
  }
  if (next != free_.end() && dev + len == next->first) {
    len += next->second;
    free_.erase(next);
  }
  free_[dev] = len;
}

uint64_t ExtentFs::Take(uint64_t bytes, uint64_t hint,
                        std::vector<std::pair<uint64_t, uint64_t>>* got) {
  auto take_from = [&](std::map<uint64_t, uint64_t>::iterator it, uint64_t want) {
    uint64_t start = it->first, len = it->second;
    uint64_t n = std::min(want, len);
    free_.erase(it);
    if (n < len) free_[start + n] = len - n;
    free_bytes_ -= n;
    got->emplace_back(start, n);
    return n;
  };
  // 1. Right after the file's previous extent, so it stays contiguous.
  auto at = free_.find(hint);
  if (at != free_.end() && at->second >= bytes) return take_from(at, bytes);
  // 2. The first free extent big enough for all of it.
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second >= bytes) return take_from(it, bytes);
  }
  // 3. Pieces, lowest addresses first, until satisfied or full.
  uint64_t taken = 0;
  while (taken < bytes && !free_.empty()) taken += take_from(free_.begin(), bytes - taken);
  return taken;
}

void ExtentFs::Insert(File& f, Extent e) {
  auto it = std::lower_bound(f.extents.begin(), f.extents.end(), e.file_offset,
                             [](const Extent& x, uint64_t off) { return x.file_offset < off; });
  if (it != f.extents.begin()) {
    Extent& p = *std::prev(it);
    if (p.file_offset + p.length == e.file_offset &&
        p.device_offset + p.length == e.device_offset) {
      p.length += e.length;
      // It may now touch the next one too.
      if (it != f.extents.end() && p.file_offset + p.length == it->file_offset &&
          p.device_offset + p.length == it->device_offset) {
        p.length += it->length;
        f.extents.erase(it);
      }
      return;
    }
  }
  if (it != f.extents.end() && e.file_offset + e.length == it->file_offset &&
      e.device_offset + e.length == it->device_offset) {
    it->file_offset = e.file_offset;
    it->device_offset = e.device_offset;
    it->length += e.length;
    return;
  }
  f.extents.insert(it, e);
}

Status ExtentFs::AllocateRange(File& f, uint64_t begin, uint64_t end) {
  begin = RoundDown(begin, block_);
  end = RoundUp(end, block_);
  // Collect the holes first: inserting extents changes the vector.
  std::vector<std::pair<uint64_t, uint64_t>> holes;  // [start, end)
  uint64_t pos = begin;
  uint64_t hint = 0;
  bool have_hint = false;
  for (const Extent& e : f.extents) {
    uint64_t e_end = e.file_offset + e.length;
    if (e_end <= pos) {
      hint = e.device_offset + e.length;
      have_hint = true;
      continue;
    }
    if (e.file_offset >= end) break;
    if (e.file_offset > pos) holes.emplace_back(pos, e.file_offset);
    pos = std::max(pos, e_end);
  }
  if (pos < end) holes.emplace_back(pos, end);
  for (auto [h0, h1] : holes) {
    std::vector<std::pair<uint64_t, uint64_t>> got;
    uint64_t want = h1 - h0;
    uint64_t taken = Take(want, have_hint ? hint : 0, &got);
    uint64_t off = h0;
    for (auto [dev, len] : got) {
      Insert(f, {off, dev, len});
      off += len;
      hint = dev + len;
      have_hint = true;
    }
    f.allocated += taken;
    if (taken < want) {
      return Status::NoSpace("no space left on the file system (" + f.name + ")");
    }
  }
  return Status();
}

void ExtentFs::GrowSize(uint32_t id, uint64_t end) {
  files_[id].size = std::max(files_[id].size, end);
}

Status ExtentFs::AllocateKeepSize(uint32_t id, uint64_t size) {
  return AllocateRange(files_[id], 0, size);
}

Status ExtentFs::Allocate(uint32_t id, uint64_t size) {
  File& f = files_[id];
  Status st = AllocateRange(f, 0, size);
  // The size covers what was allocated even when space ran out.
  uint64_t covered = 0;
  for (const Extent& e : f.extents) covered = std::max(covered, e.file_offset + e.length);
  f.size = std::max(f.size, st.ok() ? size : std::min(size, covered));
  return st;
}

Status ExtentFs::AllocateRange(uint32_t id, uint64_t begin, uint64_t end, bool keep_size) {
  File& f = files_[id];
  if (begin >= end) return Status();
  RETURN_IF_ERROR(AllocateRange(f, begin, end));
  // fs/ext4/extents.c ext4_fallocate(): the size moves only when the whole
  // range was allocated.
  if (!keep_size) f.size = std::max(f.size, end);
  return Status();
}

void ExtentFs::Truncate(uint32_t id, uint64_t size) {
  File& f = files_[id];
  uint64_t keep = RoundUp(size, block_);
  std::vector<Extent> kept;
  for (const Extent& e : f.extents) {
    if (e.file_offset >= keep) {
      Give(e.device_offset, e.length);
      f.allocated -= e.length;
    } else if (e.file_offset + e.length > keep) {
      uint64_t cut = e.file_offset + e.length - keep;
      Give(e.device_offset + e.length - cut, cut);
      f.allocated -= cut;
      kept.push_back({e.file_offset, e.device_offset, e.length - cut});
    } else {
      kept.push_back(e);
    }
  }
  f.extents = std::move(kept);
  f.size = size;
}

void ExtentFs::Punch(uint32_t id, uint64_t begin, uint64_t end,
                     std::vector<std::pair<uint64_t, uint64_t>>* freed) {
  File& f = files_[id];
  std::vector<Extent> kept;
  kept.reserve(f.extents.size() + 1);
  for (const Extent& e : f.extents) {
    const uint64_t e_end = e.file_offset + e.length;
    const uint64_t lo = std::max(begin, e.file_offset), hi = std::min(end, e_end);
    if (lo >= hi) {
      kept.push_back(e);
      continue;
    }
    // Up to three parts: kept before the hole, freed, kept after it.
    if (lo > e.file_offset) kept.push_back({e.file_offset, e.device_offset, lo - e.file_offset});
    const uint64_t dev = e.device_offset + (lo - e.file_offset);
    Give(dev, hi - lo);
    f.allocated -= hi - lo;
    freed->emplace_back(dev, hi - lo);
    if (hi < e_end) kept.push_back({hi, e.device_offset + (hi - e.file_offset), e_end - hi});
  }
  f.extents = std::move(kept);
}

Status ExtentFs::Map(uint32_t id, uint64_t offset, uint64_t length, bool allocate,
                     std::vector<Extent>* out) {
  File& f = files_[id];
  if (allocate) {
    Status st = AllocateRange(f, offset, offset + length);
    if (!st.ok()) return st;
    f.size = std::max(f.size, offset + length);
  }
  uint64_t pos = offset, end = offset + length;
  auto it = std::upper_bound(f.extents.begin(), f.extents.end(), offset,
                             [](uint64_t off, const Extent& x) { return off < x.file_offset; });
  if (it != f.extents.begin()) --it;
  for (; it != f.extents.end() && pos < end; ++it) {
    uint64_t e_end = it->file_offset + it->length;
    if (e_end <= pos) continue;
    if (it->file_offset > pos) {
      uint64_t h = std::min(end, it->file_offset);
      out->push_back({pos, kHole, h - pos});
      pos = h;
      if (pos >= end) break;
    }
    uint64_t n = std::min(end, e_end) - pos;
    out->push_back({pos, it->device_offset + (pos - it->file_offset), n});
    pos += n;
  }
  if (pos < end) out->push_back({pos, kHole, end - pos});
  return Status();
}

uint64_t ExtentFs::MapContiguous(uint32_t id, uint64_t offset, uint64_t length) const {
  const File& f = files_[id];
  const auto& ex = f.extents;
  const Extent* e = nullptr;
  if (ex.size() == 1) {
    e = &ex[0];
  } else {
    auto it = std::upper_bound(ex.begin(), ex.end(), offset,
                               [](uint64_t off, const Extent& x) { return off < x.file_offset; });
    if (it == ex.begin()) return kHole;
    e = &*std::prev(it);
  }
  if (offset < e->file_offset || offset + length > e->file_offset + e->length) return kHole;
  return e->device_offset + (offset - e->file_offset);
}

}  // namespace storlab
