// Request: one operation submitted to a node of a stack.
//
// A request names an operation, a byte range and flags, optionally carries
// data (a write's source, a read's destination; nullptr in timing-only runs,
// except writes to a stack that asks for their bytes),
// and a completion callback. The submitter owns the data buffer until the
// completion runs. Value type; move-only because of the callback. An
// aggregate: build one with designated initializers, in field order,
//
//   child.Submit(Request{.op = Op::kRead, .offset = off, .length = len,
//                        .data = buf, .done = join->Arm()});
//
// (the initializers run in that order, so `.done` may move from what the
// fields before it read; end with `.done = {}` when there is no callback).
#ifndef STORLAB_SIM_REQUEST_H_
#define STORLAB_SIM_REQUEST_H_

#include <cstdint>

#include "sim/callback.h"
#include "sim/status.h"

namespace storlab {

enum class Op : uint8_t {
  kRead = 0,
  kWrite = 1,
  kFlush = 2,        // make every write completed before it durable
  kTrim = 3,         // discard: contents become unspecified (zeros or old)
  kWriteZeroes = 4,  // the range reads as zeros afterwards
};
constexpr int kOpCount = 5;
const char* OpName(Op op);

// Request flags.
constexpr uint32_t kFua = 1u << 0;         // write: durable before completion
constexpr uint32_t kNoUnmap = 1u << 1;     // write-zeroes: keep the range allocated
constexpr uint32_t kBackground = 1u << 2;  // issued by a layer on its own (destage,
                                           // rebuild), not on behalf of a client
constexpr uint32_t kDirect = 1u << 3;      // O_DIRECT: a page cache passes it to its child
                                           // (keeping itself coherent); others ignore it
constexpr uint32_t kSync = 1u << 4;        // REQ_SYNC on a background write: a page cache's
                                           // writeback for fsync (WB_SYNC_ALL); md RAID5/6
                                           // does not delay its pre-reads (preread_gate.h)

using Completion = Callback<void(Status)>;

struct Request {
  Op op = Op::kRead;
  uint32_t flags = 0;
  uint64_t offset = 0;
  uint64_t length = 0;
  // kRead: filled before `done` runs. kWrite: read by the node at any time
  // until `done` runs. Ignored for other ops. nullptr: timing only. In a
  // run that keeps no data a write may still carry its bytes, when a node
  // asks for them (Capabilities::uses_write_data): nodes keep no data from
  // it then, a model whose timing depends on it reads it.
  uint8_t* data = nullptr;
  // The file (or stream) the request belongs to, for layers that keep
  // per-file state (the page cache's fsync of one file). 0: none.
  uint32_t file_id = 0;
  // Runs exactly once, from an engine event, never from inside Submit().
  Completion done;

  bool fua() const { return (flags & kFua) != 0; }
  bool is_write_like() const {
    return op == Op::kWrite || op == Op::kWriteZeroes || op == Op::kTrim;
  }
};

}  // namespace storlab

#endif  // STORLAB_SIM_REQUEST_H_
