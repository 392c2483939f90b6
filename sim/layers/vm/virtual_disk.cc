#include "sim/layers/vm/virtual_disk.h"

#include <algorithm>

#include "sim/stat_table.h"

namespace storlab {

VirtualDisk::VirtualDisk(Engine& engine, std::string name, Node& child, const Config& config)
    : NodeWrapper(engine, std::move(name), child), config_(config) {
  caps_.volatile_cache = config.writeback;  // the guest sees WCE=1 only with cache.writeback
  caps_.trim = config.discard && child.caps().trim;
  caps_.queue_depth = config.queue_depth;
  if (config.no_flush) {
    caps_.honors_flush = false;
    caps_.honors_fua = false;
  }
  if (config.esxi) {
    stable_writes_ = child.kind() == NodeKind::kNfs;
    caps_.volatile_cache = child.caps().volatile_cache && !stable_writes_;
    if (caps_.volatile_cache) caps_.honors_flush = caps_.honors_fua = false;
    if (config.vmdk_zero_on_first_write && !stable_writes_) {
      vmdk_ = std::make_unique<VmdkBlocks>(child.geometry().capacity);
      // VAAI Block Zeroing: one WRITE SAME of zeros per block, the space
      // kept allocated (a thick VMDK's blocks are the LUN's).
      start_zeroing_ = [this](uint64_t offset, uint64_t length) {
        const uint64_t epoch = epoch_;
        child_.Submit(Request{.op = Op::kWriteZeroes,
                              .flags = kNoUnmap,
                              .offset = offset,
                              .length = length,
                              .done = [this, epoch, offset](Status st) {
                                if (epoch == epoch_) vmdk_->Done(offset, st);
                              }});
      };
    }
  }
}

void VirtualDisk::DoSubmit(Request req) {
  if (req.op == Op::kFlush && (config_.no_flush || config_.esxi)) {
    ++dropped_flushes_;
    return CompleteAfter(config_.latency, std::move(req));
  }
  if (req.op == Op::kTrim && !config_.discard)
    return CompleteAfter(config_.latency, std::move(req));
  if (in_flight_ >= config_.queue_depth) {
    ++queue_waits_;
    waiting_.push_back(std::move(req));
    return;
  }
  Start(std::move(req));
}

void VirtualDisk::Start(Request req) {
  ++in_flight_;
  const uint64_t epoch = epoch_;
  req.done = [this, epoch, done = std::move(req.done)](Status st) mutable {
    if (epoch == epoch_) {
      --in_flight_;
      if (!waiting_.empty()) {
        Request next = std::move(waiting_.front());
        waiting_.pop_front();
        Start(std::move(next));
      }
    }
    done(std::move(st));
  };
  // One iothread serves the virtqueue: requests leave it 1/iops apart.
  const Nanos now = engine_.now();
  Nanos start = std::max(now, next_slot_);
  if (config_.iops > 0) next_slot_ = start + Nanos(static_cast<int64_t>(1e9 / config_.iops));
  start += config_.latency;
  engine_.At(start, [this, epoch, r = std::move(req)]() mutable {
    if (epoch == epoch_) Issue(std::move(r));
  });
}

void VirtualDisk::Issue(Request req) {
  // The guest's O_DIRECT bypassed only the guest's page cache; the host's
  // open flags decide here (block/file-posix.c raw_parse_flags: O_DIRECT iff cache.direct).
  req.flags &= ~kDirect;
  if (config_.direct && req.op != Op::kFlush) req.flags |= kDirect;
  if (stable_writes_ && req.op == Op::kWrite) req.flags |= kFua;
  if (req.is_write_like() && req.op != Op::kTrim && !config_.writeback) {
    return FlushAfterWrite(std::move(req));
  }
  if (vmdk_ && req.is_write_like() && req.op != Op::kTrim &&
      !vmdk_->Zeroed(req.offset, req.length)) {
    return AfterZeroing(std::move(req));
  }
  child_.Submit(std::move(req));
}

void VirtualDisk::AfterZeroing(Request req) {
  const uint64_t epoch = epoch_;
  const uint64_t offset = req.offset;
  const uint64_t length = req.length;
  vmdk_->Wait(offset, length, start_zeroing_, [this, epoch, r = std::move(req)](Status st) mutable {
    if (epoch != epoch_) return;
    if (!st.ok()) return r.done(std::move(st));
    child_.Submit(std::move(r));
  });
}

void VirtualDisk::FlushAfterWrite(Request req) {
  // cache.writeback=off: the write, then bdrv_co_flush (FUA emulation).
  Completion done = std::move(req.done);
  const uint64_t epoch = epoch_;
  req.done = [this, epoch, done = std::move(done)](Status st) mutable {
    if (epoch != epoch_) return;
    if (!st.ok()) return done(std::move(st));
    ++emulated_flushes_;
    child_.Submit(Request{.op = Op::kFlush, .done = std::move(done)});
  };
  child_.Submit(std::move(req));
}

void VirtualDisk::OnPowerCut() {
  ++epoch_;
  next_slot_ = Nanos(0);
  in_flight_ = 0;
  waiting_.clear();
  if (vmdk_) vmdk_->DropInFlight();
}

Status VirtualDisk::SaveState(StateWriter& w) const {
  // Idle: no zeroing in flight (SaveState runs on an idle stack).
  if (vmdk_) vmdk_->Save(w);
  return Status();
}

Status VirtualDisk::RestoreState(StateReader& r) {
  if (vmdk_) vmdk_->Restore(r);
  return r.status();
}

void VirtualDisk::AppendStats(StatList& out) const {
  static constexpr StatField<VirtualDisk> kStats[] = {
      {"dropped_flushes", kCount,
       [](const VirtualDisk& x) { return StatNumber(x.dropped_flushes_); }},
      {"emulated_flushes", kCount,
       [](const VirtualDisk& x) { return StatNumber(x.emulated_flushes_); }},
      {"queue_full_waits", kCount, [](const VirtualDisk& x) { return StatNumber(x.queue_waits_); }},
  };
  AppendStatTable(*this, kStats, out);
  if (!vmdk_) return;
  // Only an ESXi VMDK zeroed on first write has these (other stacks' stats stay as they were).
  static constexpr StatField<VirtualDisk> kVmdkStats[] = {
      {"vmfs_blocks_zeroed", kCount,
       [](const VirtualDisk& x) { return StatNumber(x.vmdk_->blocks_zeroed()); }},
      {"zeroing_waits", kCount, [](const VirtualDisk& x) { return StatNumber(x.vmdk_->waits()); }},
  };
  AppendStatTable(*this, kVmdkStats, out);
}

}  // namespace storlab
