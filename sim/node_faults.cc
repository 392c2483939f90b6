// Node's faults at run time (sim/node_faults.h): the last step of
// Node::Submit when any was set.
#include "sim/node_faults.h"

#include <iterator>
#include <memory>
#include <utility>

#include "sim/node.h"

namespace storlab {

NodeFaults& Node::faults() {
  if (!faults_) faults_ = std::make_unique<NodeFaults>();
  return *faults_;
}

void Node::IgnoreFua() {
  faults().ignore_fua = true;
  caps_.honors_fua = false;
}

void Node::SubmitWithFaults(Request req) {
  NodeFaults& f = *faults_;
  if (f.ignore_fua && req.fua()) {
    req.flags &= ~kFua;
    ++f.fua_dropped;
  }
  if (!f.corrupt.empty() && req.op != Op::kFlush) {
    const uint64_t lb = geometry_.logical_block;
    const uint64_t first = req.offset / lb * lb, end = req.offset + req.length;
    auto it = f.corrupt.lower_bound(first);
    if (it != f.corrupt.end() && *it < end) {
      const Op op = req.op;
      const uint64_t off = req.offset;
      uint8_t* data = req.data;
      req.done = [this, op, off, end, data, done = std::move(req.done)](Status st) mutable {
        if (st.ok() && faults_) {
          std::set<uint64_t>& bad = faults_->corrupt;
          for (auto b = bad.lower_bound(off); b != bad.end() && *b < end;) {
            if (op == Op::kRead) {
              if (data != nullptr) data[*b - off] ^= 0xff;
              ++faults_->corrupted_reads;
              ++b;
            } else {
              ++faults_->healed_blocks;
              b = bad.erase(b);
            }
          }
        }
        done(std::move(st));
      };
    }
  }
  if (f.delay_until > engine_.now()) {
    ++f.delayed;
    engine_.After(f.delay, [this, r = std::move(req)]() mutable { DoSubmit(std::move(r)); });
    return;
  }
  DoSubmit(std::move(req));
}

}  // namespace storlab
