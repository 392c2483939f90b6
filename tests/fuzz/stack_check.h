// StackCheck: a short conformance run of a built stack, in virtual time, with
// the invariants every stack must keep checked by FUZZ_CHECK.
//
// The fuzz targets that build stacks (stack files now; fio and iozone job
// files, NBD requests later) call it on whatever they managed to build, so
// the fuzzer reaches the models' timing and data paths, not only the parsers.
// A run is a few batches of concurrent writes, a flush, reads, write-zeroes
// and trim (when offered), and a power cut. Checked:
//   - the geometry is sane (capacity > 0, power-of-two blocks, aligned);
//   - every request completes exactly once, never from inside Submit(), with
//     OK (or kIoError from a model of failing media), at or after the time
//     it was submitted, and completion times never go backwards;
//   - the engine goes idle after each batch (no timer re-arms forever);
//   - with data (DataMode kRam): reads return what was written, unwritten
//     blocks read as zeros, write-zeroes reads back as zeros, and after a
//     power cut flushed/FUA data survives (where the stack honours FLUSH/FUA)
//     and every other block is its old or its new content.
// Not thread-safe.
#ifndef STORLAB_TESTS_FUZZ_STACK_CHECK_H_
#define STORLAB_TESTS_FUZZ_STACK_CHECK_H_

#include <cstdint>
#include <vector>

#include "sim/engine.h"
#include "sim/stack.h"

namespace storlab::fuzz {

// Runs the conformance workload on `stack` (built on `engine`); `has_data`
// says whether the stack keeps data (DataMode kRam or kFile). Returns every
// completion time in order, so callers can compare runs (the timing of a run
// must not depend on the data mode or on anything but the stack and seed).
std::vector<int64_t> CheckStack(Engine& engine, Stack& stack, bool has_data);

}  // namespace storlab::fuzz

#endif  // STORLAB_TESTS_FUZZ_STACK_CHECK_H_
