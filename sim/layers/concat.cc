#include "sim/layers/concat.h"

#include <algorithm>
#include <memory>

#include "sim/join.h"

namespace storlab {

Concat::Concat(Engine& engine, std::string name, std::vector<Node*> children)
    : Node(engine, std::move(name)), children_(std::move(children)) {
  caps_.trim = caps_.honors_flush = caps_.honors_fua = true;
  caps_.queue_depth = 0;
  geometry_.logical_block = 512;
  geometry_.physical_block = 512;
  for (Node* c : children_) {
    starts_.push_back(geometry_.capacity);
    geometry_.capacity += c->geometry().capacity;
    geometry_.logical_block = std::max(geometry_.logical_block, c->geometry().logical_block);
    geometry_.physical_block = std::max(geometry_.physical_block, c->geometry().physical_block);
    const Capabilities& k = c->caps();
    caps_.trim = caps_.trim && k.trim;
    caps_.rotational = caps_.rotational || k.rotational;
    caps_.volatile_cache = caps_.volatile_cache || k.volatile_cache;
    caps_.honors_flush = caps_.honors_flush && k.honors_flush;
    caps_.honors_fua = caps_.honors_fua && k.honors_fua;
    caps_.queue_depth += k.queue_depth;
  }
}

void Concat::DoSubmit(Request req) {
  // The children a request touches (every child for a flush).
  std::vector<size_t> parts;
  for (size_t i = 0; i < children_.size(); ++i) {
    const uint64_t lo = starts_[i], hi = lo + children_[i]->geometry().capacity;
    if (req.op == Op::kFlush || (req.offset < hi && req.offset + req.length > lo))
      parts.push_back(i);
  }
  auto join = Join::Make(std::move(req.done));
  for (size_t i : parts) {
    // The part of the range on child i (a flush has none).
    const bool ranged = req.op != Op::kFlush;
    const uint64_t lo = ranged ? std::max(req.offset, starts_[i]) : starts_[i];
    const uint64_t hi =
        ranged ? std::min(req.offset + req.length, starts_[i] + children_[i]->geometry().capacity)
               : starts_[i];
    children_[i]->Submit(
        Request{.op = req.op,
                .flags = req.flags,
                .offset = lo - starts_[i],
                .length = hi - lo,
                .data = ranged && req.data ? req.data + (lo - req.offset) : nullptr,
                .file_id = req.file_id,
                .done = join->Arm()});
  }
  join->Seal(engine_);
}

}  // namespace storlab
