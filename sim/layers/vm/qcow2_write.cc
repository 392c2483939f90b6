// Qcow2Node's guest writes: in place, or allocating with copy-on-write.
#include <algorithm>
#include <cstring>

#include "sim/join.h"
#include "sim/layers/vm/qcow2_node.h"

namespace storlab {

// qcow2_co_pwritev_part: allocated clusters are written in place; new ones
// are allocated at the end of the file, contiguous runs of them in one host
// write that carries the COW padding (merge_cow), then linked into the L2
// table (qcow2_alloc_cluster_link_l2) when the data is written. A write that
// touches a cluster another write is allocating waits for it
// (handle_dependencies).
void Qcow2Node::Write(Request req) {
  const uint64_t cs = config_.cluster_size;
  const uint64_t end = req.offset + req.length;
  for (uint64_t g = req.offset / cs; g <= (end - 1) / cs; ++g) {
    auto it = allocating_.find(g);
    if (it != allocating_.end()) {
      it->second.push_back(std::move(req));
      return;
    }
  }
  // Write-zeroes is a write of zeros here (qcow2_co_pwrite_zeroes' zero
  // flag in the L2 entry is not modelled).
  std::shared_ptr<std::vector<uint8_t>> zero_src;
  if (req.op == Op::kWriteZeroes && config_.keeps_data) {
    zero_src = std::make_shared<std::vector<uint8_t>>(req.length, 0);
  }
  const uint8_t* src = zero_src ? zero_src->data() : req.data;
  struct Run {
    uint64_t host;   // byte offset in the file
    uint64_t len;    // bytes written to the file
    uint64_t at;     // offset of the guest's data in req
    uint64_t guest;  // guest bytes in the run
    uint64_t head;   // fresh runs: COW padding before the guest's data
    bool fresh;
  };
  std::vector<Run> runs;
  std::vector<Qcow2Map::Change> fresh;
  std::vector<uint64_t> new_refblocks;
  for (uint64_t off = req.offset; off < end;) {
    const uint64_t g = off / cs;
    const uint64_t seg = std::min(end, (g + 1) * cs) - off;
    const auto host = map_.Lookup(g);
    if (host) {
      const uint64_t h = *host * cs + off % cs;
      if (!runs.empty() && !runs.back().fresh && runs.back().host + runs.back().len == h) {
        runs.back().len += seg;
        runs.back().guest += seg;
      } else {
        runs.push_back(Run{h, seg, off - req.offset, seg, 0, false});
      }
    } else {
      const uint64_t c = AllocateHost(1);
      const uint64_t block = map_.RefcountBlockOf(c);
      if (!map_.HasRefcountBlock(block)) {
        map_.SetRefcountBlock(block, 0);
        new_refblocks.push_back(block);
      }
      fresh.push_back({g, c});
      allocating_[g];
      if (!runs.empty() && runs.back().fresh && runs.back().host + runs.back().len == c * cs) {
        runs.back().len += cs;
        runs.back().guest += seg;
      } else {
        runs.push_back(Run{c * cs, cs, off - req.offset, seg, off % cs, true});
      }
    }
    off += seg;
  }
  uint64_t cow = 0;
  for (const Run& r : runs) cow += r.len - r.guest;
  struct State {
    Request req;
    std::vector<Qcow2Map::Change> fresh;
    std::vector<std::vector<uint8_t>> buffers;
    std::shared_ptr<std::vector<uint8_t>> zero_src;
  };
  auto st = std::make_shared<State>();
  st->fresh = std::move(fresh);
  st->zero_src = std::move(zero_src);
  const uint32_t flags = req.flags & kDirect;
  const bool fua = req.fua();
  st->req = std::move(req);
  const uint64_t epoch = epoch_;
  auto join = Join::Make([this, epoch, st, cow, fua](Status s) {
    if (epoch != epoch_) return;
    if (!s.ok()) {
      // The clusters stay allocated in the file but unlinked (leaked).
      WakeWaiters(st->fresh);
      return st->req.done(std::move(s));
    }
    Allocated(st->fresh, cow);
    WakeWaiters(st->fresh);
    Completion done = std::move(st->req.done);
    if (fua) {
      // qcow2 takes no BDRV_REQ_FUA: block/io.c bdrv_driver_pwritev emulates
      // it with bdrv_co_flush, which writes the metadata caches back too.
      done = [this, done = std::move(done)](Status s) mutable {
        if (!s.ok()) return done(std::move(s));
        EnqueueMeta(FlushOp(), std::move(done));
      };
    }
    if (config_.lazy_refcounts && !st->fresh.empty() && !marked_dirty_) {
      // qcow2_mark_dirty: flush, set the header's dirty bit, flush.
      marked_dirty_ = true;
      return EnqueueMeta(
          [this](Completion finished) {
            auto run = std::make_shared<MetaRun>();
            run->steps = {Io(Op::kFlush, 0, 0), Io(Op::kWrite, 0, child_.geometry().logical_block),
                          Io(Op::kFlush, 0, 0)};
            run->done = std::move(finished);
            RunSteps(run);
          },
          std::move(done));
    }
    done(Status());
  });
  auto write_runs = [this, st, runs = std::move(runs), src, flags, join]() {
    for (const Run& r : runs) {
      const uint8_t* data = src ? src + r.at : nullptr;
      if (r.fresh && r.len != r.guest && data != nullptr) {
        // The COW: zeros around the guest's data, one write (merge_cow).
        std::vector<uint8_t> buf(r.len, 0);
        std::memcpy(buf.data() + r.head, data, r.guest);
        st->buffers.push_back(std::move(buf));
        data = st->buffers.back().data();
      }
      child_.Submit(Request{.op = Op::kWrite,
                            .flags = flags,
                            .offset = r.host,
                            .length = r.len,
                            .data = const_cast<uint8_t*>(data),
                            .done = join->Arm()});
    }
    join->Seal(engine_);
  };
  if (new_refblocks.empty()) return write_runs();
  // alloc_refcount_block: the new refcount block is written and flushed,
  // then the refcount table entry, before the allocation proceeds.
  const uint64_t lb = child_.geometry().logical_block;
  auto blocks = std::make_shared<std::vector<uint64_t>>(std::move(new_refblocks));
  EnqueueMeta(
      [this, blocks, lb](Completion done) {
        auto run = std::make_shared<MetaRun>();
        for (uint64_t b : *blocks) {
          const uint64_t at = map_.AllocateClusters(1) * config_.cluster_size;
          map_.SetRefcountBlock(b, at);
          ++counters_.refcount_blocks_allocated;
          run->steps.push_back(Io(Op::kWrite, at, config_.cluster_size));
          run->steps.push_back(Io(Op::kFlush, 0, 0));
          run->steps.push_back(Io(Op::kWrite, map_.RefcountTableEntryOffset(b) / lb * lb, lb));
          run->steps.push_back(Io(Op::kFlush, 0, 0));
        }
        run->done = std::move(done);
        RunSteps(run);
      },
      [this, write_runs = std::move(write_runs), join](Status s) mutable {
        if (!s.ok()) {
          join->Arm()(std::move(s));
          join->Seal(engine_);
          return;
        }
        write_runs();
      });
}

}  // namespace storlab
