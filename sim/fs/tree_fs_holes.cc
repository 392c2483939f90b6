// TreeFs's holes in the middle of a file (tree_fs.h): fallocate's
// PUNCH_HOLE and ZERO_RANGE, as ext4 does them (fs/ext4/extents.c
// ext4_punch_hole and ext4_zero_range): whole blocks are freed or turned
// unwritten without device I/O; only the partial blocks at the range's
// ends are zeroed on the device.
#include <algorithm>

#include "sim/fs/tree_fs.h"

namespace storlab {

void TreeFs::PlanPartialZero(Node& n, uint64_t offset, uint64_t end, ZeroPlan* plan) {
  const uint64_t b = space_.block_size();
  const uint64_t size = static_cast<uint64_t>(n.attr.st_size);
  const uint64_t w0 = (offset + b - 1) / b * b, w1 = end / b * b;
  // The parts outside the whole blocks: one piece when the range lies
  // inside a single block, else up to two.
  std::vector<std::pair<uint64_t, uint64_t>> parts;
  if (w0 >= w1) {
    parts.emplace_back(offset, end);
  } else {
    if (offset < w0) parts.emplace_back(offset, w0);
    if (w1 < end) parts.emplace_back(w1, end);
  }
  for (auto [p0, p1] : parts) {
    p1 = std::min(p1, size);  // bytes past the size read as zeros already
    if (p0 >= p1) continue;
    std::vector<ExtentFs::Extent> ext;
    (void)space_.Map(n.file, p0, p1 - p0, false, &ext);
    std::vector<Piece> pieces;
    pieces.reserve(ext.size());
    for (const auto& e : ext) pieces.push_back({e.file_offset, e.length, e.device_offset, false});
    ApplyUnwritten(n, pieces, false);  // unwritten blocks read as zeros too
    for (const Piece& p : pieces)
      if (!p.hole()) plan->zero.emplace_back(p.device_offset, p.length);
  }
}

Result<TreeFs::ZeroPlan> TreeFs::PunchHole(uint64_t ino, uint64_t offset, uint64_t length) {
  ASSIGN_OR_RETURN(Node * n, Get(ino));
  if (IsDir(*n)) return Status::IsDirectory("inode " + std::to_string(ino));
  if (!S_ISREG(n->attr.st_mode)) return Status::InvalidArgument("not a regular file");
  RETURN_IF_ERROR(CheckRange(offset, length));
  if (length == 0) return Status::InvalidArgument("fallocate of zero length");
  ZeroPlan plan;
  const uint64_t b = space_.block_size();
  const uint64_t size = static_cast<uint64_t>(n->attr.st_size);
  if (offset >= size) return plan;  // ext4: no need to punch beyond i_size
  const uint64_t end = std::min(offset + length, (size + b - 1) / b * b);
  PlanPartialZero(*n, offset, end, &plan);
  const uint64_t w0 = (offset + b - 1) / b * b, w1 = end / b * b;
  if (w0 < w1) {
    std::vector<std::pair<uint64_t, uint64_t>> freed;
    space_.Punch(n->file, w0, w1, &freed);
    EraseUnwritten(*n, w0, w1);
  }
  UpdateBlocks(*n);
  Touch(*n, true, true);
  return plan;
}

Result<TreeFs::ZeroPlan> TreeFs::ZeroRange(uint64_t ino, uint64_t offset, uint64_t length,
                                           bool keep_size) {
  // Allocates the holes (as unwritten blocks), checks the range and the
  // space, and sets the size; then the written blocks inside turn
  // unwritten too and the partial ends are zeroed where written.
  RETURN_IF_ERROR(Allocate(ino, offset, length, keep_size));
  ASSIGN_OR_RETURN(Node * n, Get(ino));
  ZeroPlan plan;
  const uint64_t b = space_.block_size();
  const uint64_t end = offset + length;
  PlanPartialZero(*n, offset, end, &plan);
  const uint64_t w0 = (offset + b - 1) / b * b, w1 = end / b * b;
  if (w0 < w1) AddUnwritten(*n, w0, w1);
  return plan;
}

}  // namespace storlab
