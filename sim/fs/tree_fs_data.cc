// TreeFs's block map (tree_fs.h): which device ranges a file range maps to,
// allocation on write and fallocate, truncate.
#include <time.h>

#include <algorithm>

#include "sim/fs/tree_fs.h"
#include "sim/round.h"

namespace storlab {
namespace {

// The largest file (its last byte's offset must fit an off_t).
constexpr uint64_t kMaxFileSize = uint64_t{1} << 60;

}  // namespace

Status TreeFs::CheckRange(uint64_t offset, uint64_t length) {
  if (offset > kMaxFileSize || length > kMaxFileSize - offset) {
    return Status::InvalidArgument("offset " + std::to_string(offset) + " length " +
                                   std::to_string(length) + " is past the largest file (2^60)");
  }
  return Status();
}

void TreeFs::UpdateBlocks(Node& n) {
  n.attr.st_blocks = static_cast<blkcnt_t>(space_.file(n.file).allocated / 512);
}

Status TreeFs::CheckSpace(const Node& n, uint64_t offset, uint64_t length) const {
  // Bytes of blocks the holes of the range need; holes start and end on
  // block boundaries except at the range's own ends.
  std::vector<ExtentFs::Extent> ext;
  (void)const_cast<ExtentFs&>(space_).Map(n.file, offset, length, false, &ext);
  const uint64_t b = space_.block_size();
  uint64_t need = 0;
  for (const auto& e : ext) {
    if (e.device_offset != ExtentFs::kHole) continue;
    need += RoundUp(e.file_offset + e.length, b) - RoundDown(e.file_offset, b);
  }
  if (need > space_.free_bytes()) {
    return Status::NoSpace("no space left on the device: " + std::to_string(need) +
                           " bytes needed, " + std::to_string(space_.free_bytes()) + " free");
  }
  return Status();
}

Result<std::vector<TreeFs::Piece>> TreeFs::PlanRead(uint64_t ino, uint64_t offset,
                                                    uint64_t length) const {
  ASSIGN_OR_RETURN(const Node* n, Get(ino));
  if (IsDir(*n)) return Status::IsDirectory("inode " + std::to_string(ino));
  if (!S_ISREG(n->attr.st_mode)) return Status::InvalidArgument("not a regular file");
  std::vector<Piece> out;
  const uint64_t size = static_cast<uint64_t>(n->attr.st_size);
  if (offset >= size || length == 0) return out;
  length = std::min(length, size - offset);
  std::vector<ExtentFs::Extent> ext;
  RETURN_IF_ERROR(const_cast<ExtentFs&>(space_).Map(n->file, offset, length, false, &ext));
  for (const auto& e : ext) out.push_back({e.file_offset, e.length, e.device_offset, false});
  const_cast<TreeFs*>(this)->ApplyUnwritten(const_cast<Node&>(*n), out, false);
  return out;
}

Result<std::vector<TreeFs::Piece>> TreeFs::PlanWrite(uint64_t ino, uint64_t offset,
                                                     uint64_t length) {
  ASSIGN_OR_RETURN(Node * n, Get(ino));
  if (IsDir(*n)) return Status::IsDirectory("inode " + std::to_string(ino));
  if (!S_ISREG(n->attr.st_mode)) return Status::InvalidArgument("not a regular file");
  RETURN_IF_ERROR(CheckRange(offset, length));
  std::vector<Piece> out;
  if (length == 0) return out;
  RETURN_IF_ERROR(CheckSpace(*n, offset, length));
  std::vector<ExtentFs::Extent> before;
  RETURN_IF_ERROR(space_.Map(n->file, offset, length, false, &before));
  for (const auto& e : before) {
    if (e.device_offset != ExtentFs::kHole) {
      out.push_back({e.file_offset, e.length, e.device_offset, false});
      continue;
    }
    std::vector<ExtentFs::Extent> got;
    RETURN_IF_ERROR(space_.Map(n->file, e.file_offset, e.length, true, &got));
    for (const auto& g : got) out.push_back({g.file_offset, g.length, g.device_offset, true});
  }
  ApplyUnwritten(*n, out, true);
  n->attr.st_size = static_cast<off_t>(std::max<uint64_t>(n->attr.st_size, offset + length));
  UpdateBlocks(*n);
  Touch(*n, true, true);
  return out;
}

Status TreeFs::Allocate(uint64_t ino, uint64_t offset, uint64_t length, bool keep_size) {
  ASSIGN_OR_RETURN(Node * n, Get(ino));
  if (IsDir(*n)) return Status::IsDirectory("inode " + std::to_string(ino));
  if (!S_ISREG(n->attr.st_mode)) return Status::InvalidArgument("not a regular file");
  RETURN_IF_ERROR(CheckRange(offset, length));
  if (length == 0) return Status::InvalidArgument("fallocate of zero length");
  RETURN_IF_ERROR(CheckSpace(*n, offset, length));
  std::vector<ExtentFs::Extent> before;
  RETURN_IF_ERROR(space_.Map(n->file, offset, length, false, &before));
  const uint64_t b = space_.block_size();
  for (const auto& e : before) {
    if (e.device_offset != ExtentFs::kHole) continue;
    std::vector<ExtentFs::Extent> got;
    RETURN_IF_ERROR(space_.Map(n->file, e.file_offset, e.length, true, &got));
    // The hole's blocks, whole (a hole starts and ends in blocks of its own).
    AddUnwritten(*n, RoundDown(e.file_offset, b), RoundUp(e.file_offset + e.length, b));
  }
  if (!keep_size)
    n->attr.st_size = static_cast<off_t>(std::max<uint64_t>(n->attr.st_size, offset + length));
  UpdateBlocks(*n);
  Touch(*n, !keep_size, true);
  return Status();
}

void TreeFs::ApplyUnwritten(Node& n, std::vector<Piece>& pieces, bool write) {
  if (n.unwritten.empty()) return;
  const uint64_t b = space_.block_size();
  std::vector<Piece> out;
  for (const Piece& p : pieces) {
    if (p.hole() || p.fresh) {
      out.push_back(p);
      continue;
    }
    uint64_t pos = p.file_offset;
    const uint64_t end = p.file_offset + p.length;
    auto it = n.unwritten.upper_bound(pos);
    if (it != n.unwritten.begin()) --it;
    for (; pos < end;) {
      while (it != n.unwritten.end() && it->second <= pos) ++it;
      const bool inside = it != n.unwritten.end() && it->first <= pos;
      const uint64_t stop = inside ? std::min(end, it->second)
                                   : (it == n.unwritten.end() ? end : std::min(end, it->first));
      Piece q{pos, stop - pos, p.device_offset + (pos - p.file_offset), false};
      if (inside && write) q.fresh = true;
      if (inside && !write) q.device_offset = ExtentFs::kHole;
      out.push_back(q);
      pos = stop;
    }
  }
  pieces = std::move(out);
  if (!write) return;
  // The blocks written are unwritten no more (the write pads them whole).
  for (const Piece& p : pieces) {
    if (p.fresh)
      EraseUnwritten(n, RoundDown(p.file_offset, b), RoundUp(p.file_offset + p.length, b));
  }
}

void TreeFs::AddUnwritten(Node& n, uint64_t u0, uint64_t u1) {
  auto next = n.unwritten.lower_bound(u0);
  if (next != n.unwritten.begin() && std::prev(next)->second >= u0) {
    --next;
    u0 = next->first;
  }
  while (next != n.unwritten.end() && next->first <= u1) {
    u1 = std::max(u1, next->second);
    next = n.unwritten.erase(next);
  }
  n.unwritten[u0] = u1;
}

void TreeFs::EraseUnwritten(Node& n, uint64_t w0, uint64_t w1) {
  auto it = n.unwritten.upper_bound(w0);
  if (it != n.unwritten.begin()) --it;
  while (it != n.unwritten.end() && it->first < w1) {
    const uint64_t u0 = it->first, u1 = it->second;
    if (u1 <= w0) {
      ++it;
      continue;
    }
    it = n.unwritten.erase(it);
    if (u0 < w0) n.unwritten[u0] = w0;
    if (u1 > w1) it = n.unwritten.emplace(w1, u1).first;
  }
}

Result<TreeFs::TruncatePlan> TreeFs::Truncate(uint64_t ino, uint64_t size) {
  ASSIGN_OR_RETURN(Node * n, Get(ino));
  if (IsDir(*n)) return Status::IsDirectory("inode " + std::to_string(ino));
  if (!S_ISREG(n->attr.st_mode)) return Status::InvalidArgument("not a regular file");
  RETURN_IF_ERROR(CheckRange(size, 0));
  TruncatePlan plan;
  const uint64_t old = static_cast<uint64_t>(n->attr.st_size);
  const uint64_t b = space_.block_size();
  if (size < old) {
    space_.Truncate(n->file, size);
    // Unwritten ranges past the blocks kept are gone with them.
    const uint64_t keep = RoundUp(size, b);
    for (auto it = n->unwritten.lower_bound(keep); it != n->unwritten.end();)
      it = n->unwritten.erase(it);
    if (!n->unwritten.empty()) {
      auto last = std::prev(n->unwritten.end());
      if (last->second > keep) last->second = keep;
      if (last->first >= last->second) n->unwritten.erase(last);
    }
    const uint64_t cut_end = RoundUp(size, b);
    if (cut_end > size) {
      const uint64_t dev = space_.MapContiguous(n->file, size, cut_end - size);
      auto u = n->unwritten.upper_bound(size);
      const bool unwritten = u != n->unwritten.begin() && std::prev(u)->second > size;
      if (dev != ExtentFs::kHole && !unwritten) plan = {dev, cut_end - size};
    }
  }
  n->attr.st_size = static_cast<off_t>(size);
  UpdateBlocks(*n);
  Touch(*n, true, true);
  return plan;
}

}  // namespace storlab
