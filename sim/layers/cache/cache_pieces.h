// CachePiece: one contiguous transfer between a cache and one of its
// devices (the cache device, its RAM, the origin), and IssuePieces, which
// sends a list of them. Shared by the cache's data path (CacheCore) and its
// destager (CacheDestager). Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_PIECES_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_PIECES_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/node.h"

namespace storlab {

class Join;  // sim/join.h

struct CachePiece {
  uint64_t dev_off, len, buf_off;  // device offset, bytes, offset into the buffer
};

// Sorts `pieces` by device offset, merges those contiguous on the device and
// in the buffer, and submits one `op` request per run to `dev`, its data at
// base + buf_off (none if `base` is nullptr), each completion armed on `join`.
void IssuePieces(Node& dev, Op op, std::vector<CachePiece> pieces, uint8_t* base, uint32_t flags,
                 const std::shared_ptr<Join>& join);

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_PIECES_H_
