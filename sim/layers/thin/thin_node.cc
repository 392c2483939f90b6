// ThinNode's request paths: reads, writes (provisioning new chunks),
// write-zeroes and discards. Commits and the no-space policy are in
// thin_commit.cc.
#include "sim/layers/thin/thin_node.h"

#include <algorithm>
#include <cstring>

namespace storlab {

ThinNode::ThinNode(Engine& engine, std::string name, Node& child, const Config& config)
    : NodeWrapper(engine, std::move(name), child),
      config_(config),
      md_((config.pool_size ? config.pool_size : child.geometry().capacity) / config.chunk) {
  md_.set_others((config.others_used + config.chunk - 1) / config.chunk);
  geometry_.capacity = config.virtual_size * config.volumes;
  caps_.trim = true;
  caps_.volatile_cache = true;  // mappings are volatile until committed
  caps_.fast_zero = true;       // zeroing an unprovisioned chunk costs nothing
  if (config.keeps_data && config.zero_new_chunks) zeros_.assign(config.chunk, 0);
}

void ThinNode::DoSubmit(Request req) {
  auto io = std::make_shared<Io>();
  io->req = std::move(req);
  io->epoch = epoch_;
  switch (io->req.op) {
    case Op::kRead:
      return Read(io);
    case Op::kWrite:
      return Write(io);
    case Op::kWriteZeroes:
      return WriteZeroes(io);
    case Op::kTrim:
      return Discard(io);
    case Op::kFlush:
      // Everything acknowledged must be durable: the mappings too.
      if (md_.dirty()) {
        return RequestCommit([this, io](Status st) { Complete(io, std::move(st)); });
      }
      return child_.Submit(std::move(io->req));
  }
}

std::vector<ThinNode::Run> ThinNode::Runs(
    uint64_t off, uint64_t len, const std::vector<std::pair<uint64_t, uint64_t>>* extra) const {
  const uint64_t c = config_.chunk, end = off + len;
  std::vector<Run> out;
  for (uint64_t pos = off; pos < end;) {
    const uint64_t v = pos / c, n = std::min(end, (v + 1) * c) - pos;
    std::optional<uint64_t> p = md_.Lookup(v);
    if (!p && extra) {
      for (const auto& [ev, ep] : *extra)
        if (ev == v) p = ep;
    }
    std::optional<uint64_t> at;
    if (p) at = *p * c + (pos - v * c);
    if (!out.empty() && out.back().pool_offset.has_value() == at.has_value() &&
        (!at || *out.back().pool_offset + out.back().length == *at)) {
      out.back().length += n;
    } else {
      out.push_back({pos, n, at});
    }
    pos += n;
  }
  return out;
}

uint64_t ThinNode::volume_mapped_bytes(uint32_t i) const {
  const uint64_t c = config_.chunk, lo = volume_offset(i) / c;
  return md_.MappedIn(lo, lo + ChunkUp(config_.virtual_size) / c) * c;
}

bool ThinNode::AllMapped(uint64_t off, uint64_t len) const {
  for (uint64_t v = off / config_.chunk; v <= (off + len - 1) / config_.chunk; ++v)
    if (!md_.Lookup(v)) return false;
  return true;
}

void ThinNode::Lock(const std::shared_ptr<Io>& io, bool whole_chunks, Callback<void()> then) {
  const uint64_t off = io->req.offset, end = off + io->req.length;
  io->whole_chunks = whole_chunks;
  const uint64_t lo = whole_chunks ? ChunkDown(off) : off, hi = whole_chunks ? ChunkUp(end) : end;
  lock_.Acquire(lo, hi, [io, then = std::move(then)](uint64_t ticket) mutable {
    io->ticket = ticket;
    then();
  });
}

void ThinNode::Unlock(const std::shared_ptr<Io>& io) {
  if (io->ticket != 0) lock_.Release(io->ticket);
  io->ticket = 0;
}

void ThinNode::Issue(const std::shared_ptr<Io>& io, Op op, uint64_t off, uint64_t len,
                     uint8_t* data, uint32_t flags) {
  ++io->pending;
  auto done = [this, io](Status st) {
    if (io->epoch != epoch_) return;
    if (!st.ok() && io->status.ok()) io->status = std::move(st);
    if (--io->pending == 0) {
      auto next = std::move(io->next);
      next(io);
    }
  };
  Request r{.op = op,
            .flags = flags,
            .offset = off,
            .length = len,
            .data = data,
            .file_id = 0,
            .done = std::move(done)};
  child_.Submit(std::move(r));
}

void ThinNode::WhenIssued(const std::shared_ptr<Io>& io) {
  // Nothing was sent down: go on from an event (never inside Submit()).
  if (io->pending != 0) return;
  engine_.After(Nanos(0), [this, io] {
    if (io->epoch != epoch_) return;
    auto next = std::move(io->next);
    next(io);
  });
}

void ThinNode::Complete(const std::shared_ptr<Io>& io, Status st) { io->req.done(std::move(st)); }

void ThinNode::Read(const std::shared_ptr<Io>& io) {
  Lock(io, false, [this, io] {
    const uint64_t off = io->req.offset;
    io->next = [this](const std::shared_ptr<Io>& io) {
      Unlock(io);
      Complete(io, io->status);
    };
    for (const Run& r : Runs(off, io->req.length)) {
      uint8_t* dst = io->req.data ? io->req.data + (r.offset - off) : nullptr;
      if (r.pool_offset) {
        Issue(io, Op::kRead, *r.pool_offset, r.length, dst, 0);
      } else if (dst) {
        std::memset(dst, 0, r.length);  // never written: zeros, the pool untouched
      }
    }
    WhenIssued(io);
  });
}

void ThinNode::Write(const std::shared_ptr<Io>& io) {
  const uint64_t off = io->req.offset, len = io->req.length;
  Lock(io, !AllMapped(off, len), [this, io, off, len] {
    if (!io->whole_chunks && !AllMapped(off, len)) {
      // A discard unmapped a chunk while this waited: lock whole chunks.
      Unlock(io);
      return Write(io);
    }
    const uint64_t c = config_.chunk;
    for (uint64_t v = off / c; v <= (off + len - 1) / c; ++v) {
      if (md_.Lookup(v)) continue;
      std::optional<uint64_t> p = md_.Allocate();
      if (!p) {
        for (const auto& [pv, pp] : io->provisioned) md_.Unreserve(pp);
        io->provisioned.clear();
        Unlock(io);
        if (io->commit_tried || !md_.dirty()) return NoSpace(io);
        // dm-thin's alloc_data_block: commit, which may free the chunks
        // discarded since the last commit, and try again.
        io->commit_tried = true;
        return RequestCommit([this, io](Status st) {
          if (!st.ok()) return Complete(io, std::move(st));
          Write(io);
        });
      }
      io->provisioned.emplace_back(v, *p);
    }
    // dm-thin zeroes a new chunk the write does not cover whole, then writes.
    io->next = [this](const std::shared_ptr<Io>& io) { WriteData(io); };
    for (const auto& [v, p] : io->provisioned) {
      const uint64_t start = v * c, stop = std::min((v + 1) * c, geometry_.capacity);
      if (!config_.zero_new_chunks || (off <= start && off + len >= stop)) continue;
      ++zeroed_;
      Issue(io, Op::kWrite, p * c, c, zeros_.empty() ? nullptr : zeros_.data(), 0);
    }
    if (io->pending == 0) WriteData(io);  // only sends requests: safe inside Submit()
  });
}

void ThinNode::WriteData(const std::shared_ptr<Io>& io) {
  if (!io->status.ok()) return WriteDone(io);
  const uint64_t off = io->req.offset;
  io->next = [this](const std::shared_ptr<Io>& io) { WriteDone(io); };
  for (const Run& r : Runs(off, io->req.length, &io->provisioned)) {
    Issue(io, Op::kWrite, *r.pool_offset, r.length,
          io->req.data ? io->req.data + (r.offset - off) : nullptr, io->req.flags & kFua);
  }
}

void ThinNode::WriteDone(const std::shared_ptr<Io>& io) {
  if (!io->status.ok()) {
    for (const auto& [v, p] : io->provisioned) md_.Unreserve(p);
    Unlock(io);
    return Complete(io, io->status);
  }
  // The data has landed: now the mappings enter the transaction.
  for (const auto& [v, p] : io->provisioned) md_.Map(v, p);
  provisioned_ += io->provisioned.size();
  if (!io->provisioned.empty()) Changed();
  Unlock(io);
  FinishWrite(io);
}

void ThinNode::FinishWrite(const std::shared_ptr<Io>& io) {
  // dm-thin: a FUA write while its thin volume has uncommitted changes
  // waits for the commit of the pool (bio_triggers_commit).
  const uint64_t c = config_.chunk,
                 first = io->req.offset / config_.virtual_size * config_.virtual_size / c;
  if (io->req.fua() && md_.ChangedIn(first, first + ChunkUp(config_.virtual_size) / c)) {
    return RequestCommit([this, io](Status st) { Complete(io, std::move(st)); });
  }
  Complete(io, Status());
}

void ThinNode::WriteZeroes(const std::shared_ptr<Io>& io) {
  // Chunks never written already read as zeros; mapped ones are zeroed in
  // the pool. Nothing is provisioned.
  Lock(io, false, [this, io] {
    io->next = [this](const std::shared_ptr<Io>& io) {
      Unlock(io);
      if (!io->status.ok()) return Complete(io, io->status);
      FinishWrite(io);
    };
    for (const Run& r : Runs(io->req.offset, io->req.length)) {
      if (r.pool_offset) {
        Issue(io, Op::kWriteZeroes, *r.pool_offset, r.length, nullptr,
              io->req.flags & (kFua | kNoUnmap));
      }
    }
    WhenIssued(io);
  });
}

void ThinNode::Discard(const std::shared_ptr<Io>& io) {
  Lock(io, true, [this, io] {
    const uint64_t c = config_.chunk, off = io->req.offset, end = off + io->req.length;
    const bool passdown = config_.discard_passdown && child_.caps().trim;
    bool unmapped = false;
    io->next = [this](const std::shared_ptr<Io>& io) {
      Unlock(io);
      Complete(io, io->status);
    };
    for (uint64_t v = off / c; v <= (end - 1) / c; ++v) {
      const std::optional<uint64_t> p = md_.Lookup(v);
      if (!p) continue;
      const uint64_t lo = std::max(off, v * c), hi = std::min(end, (v + 1) * c);
      if (lo == v * c && hi >= std::min((v + 1) * c, geometry_.capacity)) {
        md_.Unmap(v);  // the whole chunk goes back to the pool
        ++discarded_;
        unmapped = true;
        if (passdown) Issue(io, Op::kTrim, *p * c, c, nullptr, 0);
      } else if (passdown) {
        Issue(io, Op::kTrim, *p * c + (lo - v * c), hi - lo, nullptr, 0);
      }
    }
    if (unmapped) {
      Changed();
      SpaceFreed();
    }
    WhenIssued(io);
  });
}

void ThinNode::OnPowerCut() {
  ++epoch_;
  lock_.Clear();
  md_.Rollback();  // provisioned since the last commit: unmapped again
  committing_ = commit_timer_ = no_space_timer_ = no_space_failed_ = false;
  commit_waiters_.clear();
  no_space_queue_.clear();
}

}  // namespace storlab
