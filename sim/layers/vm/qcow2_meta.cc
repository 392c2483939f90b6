// Qcow2Node's metadata: the L2 and refcount caches' writeback, L2 misses,
// L2 table allocation and the guest's flush, one operation at a time as
// qemu runs them under s->lock (block/qcow2-cache.c, qcow2-cluster.c).
#include "sim/layers/vm/qcow2_node.h"

namespace storlab {

Qcow2Node::MetaStep Qcow2Node::Io(Op op, uint64_t offset, uint64_t length) const {
  return MetaStep{.op = op, .offset = offset, .length = length};
}

void Qcow2Node::EnqueueMeta(MetaOp op, Completion then) {
  meta_queue_.emplace_back(std::move(op), std::move(then));
  RunMeta();
}

void Qcow2Node::RunMeta() {
  if (meta_busy_ || meta_queue_.empty()) return;
  meta_busy_ = true;
  auto [op, then] = std::move(meta_queue_.front());
  meta_queue_.pop_front();
  const uint64_t epoch = epoch_;
  op([this, epoch, then = std::move(then)](Status st) mutable {
    if (epoch != epoch_) return;
    meta_busy_ = false;
    then(std::move(st));
    RunMeta();
  });
}

void Qcow2Node::RunSteps(const std::shared_ptr<MetaRun>& run) {
  if (run->next == run->steps.size()) {
    Completion done = std::move(run->done);
    if (run->steps.empty()) {  // nothing to do: still complete from an event
      engine_.After(Nanos(0), [done = std::move(done)]() mutable { done(Status()); });
    } else {
      done(Status());
    }
    return;
  }
  const MetaStep step = run->steps[run->next++];
  std::vector<Qcow2Map::Change> durable;
  uint8_t* data = nullptr;
  if (step.op == Op::kFlush) {
    ++counters_.file_flushes;
    durable.swap(written_);  // what this flush makes durable
  } else if (step.op == Op::kRead) {
    ++counters_.metadata_reads;
    if (config_.keeps_data) data = scratch_.data();
  } else {
    ++counters_.metadata_writes;
    counters_.metadata_write_bytes += step.length;
    if (config_.keeps_data) data = zeros_.data();
  }
  const uint64_t epoch = epoch_;
  child_.Submit(
      Request{.op = step.op,
              .flags = step.op == Op::kFlush ? 0u : direct_,
              .offset = step.offset,
              .length = step.length,
              .data = data,
              .done = [this, epoch, run, step, durable = std::move(durable)](Status st) mutable {
                if (epoch != epoch_) return;
                if (!st.ok()) {
                  written_.insert(written_.end(), durable.begin(), durable.end());
                  Completion done = std::move(run->done);
                  return done(std::move(st));
                }
                for (const Qcow2Map::Change& c : durable) map_.MakeDurable(c);
                if (step.commits) {
                  written_.insert(written_.end(), run->batch.begin(), run->batch.end());
                  run->batch.clear();
                }
                RunSteps(run);
              }});
}

void Qcow2Node::AppendRefcountWriteback(MetaRun& run) {
  for (uint64_t b : dirty_refblocks_) {
    const uint64_t at = map_.RefcountBlockOffset(b);
    if (at != 0) run.steps.push_back(Io(Op::kWrite, at, config_.cluster_size));
  }
  dirty_refblocks_.clear();
}

// qcow2_cache_write(l2_table_cache): each dirty entry through
// qcow2_cache_entry_flush, which first honours the dependency: the refcount
// cache is flushed (written, then bdrv_flush of the file) unless
// lazy_refcounts; after a COW, the file is flushed (depends_on_flush).
void Qcow2Node::AppendL2Writeback(MetaRun& run) {
  if (l2_.dirty_slices().empty()) return;
  if (!config_.lazy_refcounts && !dirty_refblocks_.empty()) {
    AppendRefcountWriteback(run);
    run.steps.push_back(Io(Op::kFlush, 0, 0));
  } else if (depends_on_flush_) {
    run.steps.push_back(Io(Op::kFlush, 0, 0));
  }
  depends_on_flush_ = false;
  const uint64_t e = config_.l2_cache_entry_size;
  const std::vector<uint64_t> dirty(l2_.dirty_slices().begin(), l2_.dirty_slices().end());
  for (uint64_t s : dirty) {
    run.steps.push_back(
        Io(Op::kWrite, map_.TableOffset(TableOf(s)) + (s % slices_per_table_) * e, e));
    auto it = pending_.find(s);
    if (it != pending_.end()) {
      run.batch.insert(run.batch.end(), it->second.begin(), it->second.end());
      pending_.erase(it);
    }
    l2_.MarkClean(s);
  }
  run.steps.back().commits = true;
}

void Qcow2Node::LoadSlice(uint64_t slice, bool for_write, Completion done) {
  EnqueueMeta(
      [this, slice, for_write](Completion finished) {
        auto run = std::make_shared<MetaRun>();
        const uint64_t cs = config_.cluster_size;
        const uint64_t t = TableOf(slice);
        const uint64_t lb = child_.geometry().logical_block;
        if (!map_.HasTable(t) && for_write) {
          // l2_allocate: allocate the table, flush the refcount cache, write
          // the new table through the L2 cache's flush, then the L1 entry
          // (qcow2_write_l1_entry: bdrv_pwrite_sync), each followed by a flush.
          const uint64_t at = map_.AllocateClusters(1) * cs;  // metadata: not counted as data
          ++counters_.l2_tables_allocated;
          dirty_refblocks_.insert(map_.RefcountBlockOf(at / cs));
          AppendRefcountWriteback(*run);
          run->steps.push_back(Io(Op::kFlush, 0, 0));
          depends_on_flush_ = false;
          AppendL2Writeback(*run);
          run->steps.push_back(Io(Op::kWrite, at, cs));
          run->steps.back().commits = true;
          run->steps.push_back(Io(Op::kFlush, 0, 0));
          run->steps.push_back(Io(Op::kWrite, map_.L1EntryOffset(t) / lb * lb, lb));
          run->steps.push_back(Io(Op::kFlush, 0, 0));
          map_.SetTable(t, at);
          tables_in_progress_.push_back(t);
        } else if (map_.HasTable(t) && l2_.Touch(slice)) {
          ++counters_.l2_hits;  // another request's load or allocation brought it in
        } else if (map_.HasTable(t)) {
          ++counters_.l2_misses;
          if (auto victim = l2_.Victim()) {
            ++counters_.l2_evictions;
            if (l2_.dirty(*victim)) {
              // qcow2_cache_entry_flush of the victim, with its dependency.
              if (!config_.lazy_refcounts && !dirty_refblocks_.empty()) {
                AppendRefcountWriteback(*run);
                run->steps.push_back(Io(Op::kFlush, 0, 0));
              } else if (depends_on_flush_) {
                run->steps.push_back(Io(Op::kFlush, 0, 0));
              }
              depends_on_flush_ = false;
              const uint64_t e = config_.l2_cache_entry_size;
              run->steps.push_back(
                  Io(Op::kWrite,
                     map_.TableOffset(TableOf(*victim)) + (*victim % slices_per_table_) * e, e));
              run->steps.back().commits = true;
              auto it = pending_.find(*victim);
              if (it != pending_.end()) {
                run->batch = std::move(it->second);
                pending_.erase(it);
              }
            }
            l2_.Evict(*victim);
          }
          const uint64_t e = config_.l2_cache_entry_size;
          run->steps.push_back(
              Io(Op::kRead, map_.TableOffset(t) + (slice % slices_per_table_) * e, e));
        }
        run->done = [this, slice, t, finished = std::move(finished)](Status st) mutable {
          if (st.ok()) {
            tables_in_progress_.clear();
            if (map_.HasTable(t) && !l2_.Touch(slice)) {
              if (auto victim = l2_.Victim(); victim && !l2_.dirty(*victim)) l2_.Evict(*victim);
              l2_.Insert(slice);
            }
          }
          finished(std::move(st));
        };
        RunSteps(run);
      },
      std::move(done));
}

// The guest's flush (qcow2_co_flush_to_os -> qcow2_write_caches, then
// bdrv_co_flush of bs->file): dirty L2 slices (their refcounts first),
// the refcount blocks, then a flush of the file.
void Qcow2Node::Flush(Request req) { EnqueueMeta(FlushOp(), std::move(req.done)); }

Qcow2Node::MetaOp Qcow2Node::FlushOp() {
  return [this](Completion done) {
    auto run = std::make_shared<MetaRun>();
    AppendL2Writeback(*run);
    AppendRefcountWriteback(*run);
    run->steps.push_back(Io(Op::kFlush, 0, 0));
    run->done = std::move(done);
    RunSteps(run);
  };
}

}  // namespace storlab
