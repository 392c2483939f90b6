#include "sim/layers/cache/cache_pieces.h"

#include <algorithm>

#include "sim/join.h"

namespace storlab {

void IssuePieces(Node& dev, Op op, std::vector<CachePiece> pieces, uint8_t* base, uint32_t flags,
                 const std::shared_ptr<Join>& join) {
  std::sort(pieces.begin(), pieces.end(),
            [](const CachePiece& a, const CachePiece& b) { return a.dev_off < b.dev_off; });
  std::vector<CachePiece> merged;
  for (const CachePiece& p : pieces) {
    if (!merged.empty()) {
      CachePiece& m = merged.back();
      if (m.dev_off + m.len == p.dev_off && m.buf_off + m.len == p.buf_off) {
        m.len += p.len;
        continue;
      }
    }
    merged.push_back(p);
  }
  for (const CachePiece& p : merged) {
    Request r{.op = op,
              .flags = flags,
              .offset = p.dev_off,
              .length = p.len,
              .data = base ? base + p.buf_off : nullptr,
              .done = join->Arm()};
    dev.Submit(std::move(r));
  }
}

}  // namespace storlab
