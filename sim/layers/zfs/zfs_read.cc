// ZfsPool: reads, through the ARC (zfs_arc.h).
#include <algorithm>
#include <memory>

#include "sim/layers/zfs/zfs.h"

namespace storlab {

void ZfsPool::StartRead(Request req) {
  std::vector<uint64_t> need;
  for (uint64_t rec = RecordOf(req.offset); rec <= LastRecordOf(req.offset, req.length); ++rec) {
    if (InMemory(rec) || txg_.Block(rec) == nullptr) {
      ++counters_.arc_hits;  // in memory, or a hole: nothing to read
      arc_.Touch(rec);
    } else {
      ++counters_.arc_misses;
      need.push_back(rec);
    }
  }
  if (need.empty()) return DecompressAndServe(std::move(req));
  ReadRecords(need, std::move(req), [this](Request r) { DecompressAndServe(std::move(r)); });
}

void ZfsPool::DecompressAndServe(Request req) {
  // The records just read are uncompressed; the others the ARC held may
  // not be.
  Nanos decompress(0);
  for (uint64_t rec = RecordOf(req.offset); rec <= LastRecordOf(req.offset, req.length); ++rec)
    decompress += Decompress(rec);
  if (decompress == Nanos(0)) return ServeRead(std::move(req));
  const Nanos end = cpu_.Compute(engine_.now(), decompress, config_.record_size);
  engine_.At(end, [this, r = std::move(req)]() mutable { ServeRead(std::move(r)); });
}

Nanos ZfsPool::Decompress(uint64_t rec) {
  // dbuf_read() -> arc_read(): a record the ARC holds compressed and the
  // dbuf cache does not is decompressed into a new dbuf (arc_buf_fill ->
  // arc_buf_decompress); one the open or syncing txg holds whole is in a
  // dirty dbuf already.
  if (txg_.HoldsWhole(rec) || !InArc(rec) || arc_.Uncompressed(rec)) return Nanos(0);
  const ZfsBp* bp = txg_.Block(rec);
  if (bp == nullptr || !bp->compressed) return Nanos(0);
  ++counters_.dbuf_decompressions;
  counters_.decompress_cpu_ns += static_cast<uint64_t>(bp->decompress_cpu.count());
  arc_.Decompressed(rec);
  return bp->decompress_cpu;
}

void ZfsPool::ReadRecords(const std::vector<uint64_t>& recs, Request req,
                          Callback<void(Request)> then) {
  struct Wait {
    size_t left;
    Status status;
    Request req;
    Callback<void(Request)> then;
  };
  auto w = std::make_shared<Wait>(Wait{recs.size(), Status(), std::move(req), std::move(then)});
  for (uint64_t rec : recs) {
    ReadRecord(rec, [w](Status st) {
      if (!st.ok() && w->status.ok()) w->status = st;
      if (--w->left > 0) return;
      if (!w->status.ok()) return w->req.done(w->status);
      w->then(std::move(w->req));
    });
  }
}

void ZfsPool::ServeRead(Request req) {
  // Newest wins: the committed content, the syncing txg, the open txg.
  if (req.data) {
    Status st = store_->Read(req.offset, req.length, req.data);
    if (!st.ok()) return CompleteAfter(Nanos(0), std::move(req), st);
    txg_.PatchDirty(req.offset, req.length, req.data);
  }
  const Nanos end = cpu_.Copy(engine_.now(), req.length);
  CompleteAfter(end - engine_.now(), std::move(req));
}

void ZfsPool::ReadRecord(uint64_t rec, Callback<void(Status)> done) {
  auto& waiters = record_reads_[rec];
  waiters.push_back(std::move(done));
  if (waiters.size() > 1) return;  // already being read
  const ZfsBp bp = *txg_.Block(rec);
  vdevs_.Read(bp, ZfsIoClass::kSyncRead, [this, rec, bp](Status st) {
    auto finish = [this, rec](Status s) {
      auto it = record_reads_.find(rec);
      if (it == record_reads_.end()) return;
      auto waiters = std::move(it->second);
      record_reads_.erase(it);
      if (s.ok()) arc_.Insert(rec);
      for (auto& w : waiters) w(s);
    };
    if (!st.ok() || !bp.compressed) return finish(st);
    counters_.decompress_cpu_ns += static_cast<uint64_t>(bp.decompress_cpu.count());
    const Nanos end = cpu_.Compute(engine_.now(), bp.decompress_cpu, config_.record_size);
    engine_.At(end, [finish = std::move(finish)]() mutable { finish(Status()); });
  });
}

}  // namespace storlab
