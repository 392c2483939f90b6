// ZfsPool: the write path past the throttle (zfs_write -> dmu_buf_will_dirty
// -> dbuf_dirty; dmu_tx_assign and the txgs: zfs_txg.h), trims and
// write-zeroes.
#include <algorithm>
#include <memory>

#include "sim/layers/zfs/zfs.h"

namespace storlab {

void ZfsPool::Prepare(Request req) {
  // A write covering part of a record that is not in memory reads it first
  // (dmu_buf_will_dirty -> dbuf_read): only the first and last records can
  // be partial.
  const uint64_t ends[] = {RecordOf(req.offset), LastRecordOf(req.offset, req.length)};
  std::vector<uint64_t> need;
  for (uint64_t rec : ends) {
    if (Partial(req, rec) && !InMemory(rec) && txg_.Block(rec) != nullptr &&
        std::find(need.begin(), need.end(), rec) == need.end())
      need.push_back(rec);
  }
  if (need.empty()) {
    // The partial records the ARC holds only compressed are decompressed
    // first (dmu_buf_will_dirty -> dbuf_read: zfs_read.cc, Decompress; a
    // record decompressed is not again).
    Nanos decompress(0);
    for (uint64_t rec : ends)
      if (Partial(req, rec)) decompress += Decompress(rec);
    const Nanos start = decompress > Nanos(0)
                            ? cpu_.Compute(engine_.now(), decompress, config_.record_size)
                            : engine_.now();
    const Nanos end = cpu_.Copy(start, req.op == Op::kWrite ? req.length : 0);
    engine_.At(end, [this, r = std::move(req)]() mutable { Apply(std::move(r)); });
    return;
  }
  counters_.rmw_reads += need.size();
  // Then again: the records are in the ARC now.
  ReadRecords(need, std::move(req), [this](Request r) { Prepare(std::move(r)); });
}

void ZfsPool::Apply(Request req) {
  const uint64_t txg = txg_.Dirty(req);
  // sync=always: every write is synchronous; sync=disabled: none is.
  const bool sync =
      config_.sync == ZfsSync::kAlways || (config_.sync == ZfsSync::kStandard && req.fua());
  if (req.op == Op::kWrite) {
    counters_.absorbed_bytes += req.length;
    if (sync) counters_.sync_write_bytes += req.length;
  }
  zil_.Assign(req.file_id, txg, req.offset, req.length);
  if (sync) {
    // O_DSYNC: the write is committed to the ZIL before it completes.
    zil_.Commit(req.file_id, false,
                [done = std::move(req.done)](Status st) mutable { done(std::move(st)); });
    return;
  }
  req.done(Status());
}

}  // namespace storlab
