#include "sim/layers/nfs/nfs.h"

#include <algorithm>

#include "sim/join.h"
#include "sim/stat_table.h"

namespace storlab {

Nfs::Nfs(Engine& engine, const std::string& name, const Config& cfg, Node& backing, bool keeps_data)
    : Node(engine, name),
      cfg_(cfg),
      backing_(backing),
      link_(cfg.line_bytes_per_s, cfg.mtu, cfg.rtt,
            Jitter(cfg.seed, name + "/network", static_cast<double>(cfg.rtt_jitter.count()))),
      slots_allocated_(cfg.nconnect * std::min(cfg.min_slots, cfg.slots)),
      slots_high_water_(slots_allocated_) {
  if (cfg_.server_cache) {
    cache_ = std::make_unique<CacheCore>(engine, name + "/server_cache", cfg_.cache, nullptr,
                                         backing, keeps_data);
    server_dirty_ = std::make_unique<NfsServerDirty>(cfg_.cache.size, cfg_.cache.dirty_background,
                                                     cfg_.cache.dirty_limit);
    cache_->set_on_destaged([this](uint64_t, uint64_t len) {
      server_dirty_->OnDestaged(engine_.now(), len, cache_->dirty_bytes());
    });
  }
  geometry_ = backing.geometry();
  const Capabilities server = cache_ ? cache_->caps() : backing.caps();
  caps_.trim = false;  // NFSv3 has no discard
  caps_.rotational = backing.caps().rotational;
  caps_.volatile_cache = server.volatile_cache || cfg_.async_export;
  caps_.honors_flush = server.honors_flush && !cfg_.async_export;
  caps_.honors_fua = server.honors_fua && !cfg_.async_export;
  caps_.queue_depth = cfg_.nconnect * cfg_.slots;
}

Nfs::~Nfs() = default;

void Nfs::DoSubmit(Request req) {
  const Op op = req.op;
  auto join = Join::Make(std::move(req.done));
  if (op == Op::kFlush) {
    Enqueue(std::make_unique<Rpc>(Rpc{op, 0, 0, 0, nullptr, Nanos(), join->Arm()}));
  } else {
    const uint64_t max = op == Op::kRead ? cfg_.rsize : cfg_.wsize;
    for (uint64_t done = 0; done < req.length; done += max) {
      uint64_t n = std::min(max, req.length - done);
      uint8_t* data = req.data ? req.data + done : nullptr;
      Enqueue(std::make_unique<Rpc>(
          Rpc{op, req.flags, req.offset + done, n, data, Nanos(), join->Arm()}));
    }
  }
  join->Seal(engine_);
}

void Nfs::Enqueue(std::unique_ptr<Rpc> rpc) {
  if (in_flight_ < slots_allocated_) return Send(std::move(rpc));
  // xprt_alloc_slot(): no free slot — xprt_dynamic_alloc_slot() adds one
  // while the table is under tcp_max_slot_table_entries; else the RPC
  // waits on the backlog.
  if (slots_allocated_ < max_in_flight()) {
    ++slots_allocated_;
    slots_high_water_ = std::max(slots_high_water_, slots_allocated_);
    return Send(std::move(rpc));
  }
  slot_waiters_.push_back(std::move(rpc));
}

void Nfs::Send(std::unique_ptr<Rpc> rpc) {
  ++in_flight_;
  ++rpcs_[static_cast<int>(rpc->op)];
  if (rpc->op == Op::kWrite && (rpc->flags & kFua)) ++file_sync_writes_;
  rpc->sent = engine_.now();
  const bool carries_data = rpc->op == Op::kWrite || rpc->op == Op::kWriteZeroes;
  const Nanos at = link_.Send(NfsLink::kToServer,
                              cfg_.call_bytes + (carries_data ? rpc->length : 0), engine_.now());
  engine_.At(at, [this, r = std::move(rpc)]() mutable { Arrive(std::move(r)); });
}

void Nfs::Arrive(std::unique_ptr<Rpc> rpc) {
  if (busy_threads_ < cfg_.server_threads) return Serve(std::move(rpc));
  thread_waiters_.push_back(std::move(rpc));
}

void Nfs::Serve(std::unique_ptr<Rpc> rpc) {
  ++busy_threads_;
  const uint64_t epoch = epoch_;
  engine_.After(cfg_.server_rpc_time, [this, epoch, r = std::move(rpc)]() mutable {
    if (epoch != epoch_) return;
    Rpc* p = r.get();
    // An async export answers FILE_SYNC and COMMIT without making anything
    // stable: the write stays in the server's cache, the COMMIT does nothing.
    if (p->op == Op::kFlush && cfg_.async_export) {
      engine_.After(Nanos(0),
                    [this, r = std::move(r)]() mutable { Served(std::move(r), Status()); });
      return;
    }
    Request q{.op = p->op,
              .flags = cfg_.async_export ? (p->flags & ~kFua) : p->flags,
              .offset = p->offset,
              .length = p->length,
              .data = p->data,
              .done = {}};
    const bool cached_write =
        cache_ && (q.op == Op::kWrite || q.op == Op::kWriteZeroes) && !(q.flags & kFua);
    if (cached_write) return ServerWrite(std::move(r), std::move(q));
    q.done = [this, r = std::move(r)](Status st) mutable { Served(std::move(r), std::move(st)); };
    ServerSubmit(std::move(q));
  });
}

void Nfs::ServerWrite(std::unique_ptr<Rpc> rpc, Request q) {
  // nfsd_vfs_write() → vfs_iter_write(): the pages that were clean become
  // dirty (current->nr_dirtied counts only those: folio_account_dirtied),
  // then balance_dirty_pages_ratelimited() may put the thread to sleep.
  const uint64_t fresh = q.length - cache_->DirtyBytesIn(q.offset, q.length);
  server_dirty_->OnWrite(engine_.now(), cache_->dirty_bytes());
  const uint64_t epoch = epoch_;
  q.done = [this, fresh, epoch, r = std::move(rpc)](Status st) mutable {
    const Nanos now = engine_.now();
    const Nanos at = st.ok() ? server_dirty_->ReplyAt(now, cache_->dirty_bytes(), fresh) : now;
    if (at == now) return Served(std::move(r), std::move(st));
    engine_.At(at, [this, epoch, r = std::move(r), st = std::move(st)]() mutable {
      if (epoch == epoch_) Served(std::move(r), std::move(st));
    });
  };
  cache_->Submit(std::move(q));
}

void Nfs::ServerSubmit(Request r) {
  if (cache_) {
    cache_->Submit(std::move(r));
  } else {
    backing_.Submit(std::move(r));
  }
}

void Nfs::Served(std::unique_ptr<Rpc> rpc, Status st) {
  --busy_threads_;
  if (!thread_waiters_.empty()) {
    std::unique_ptr<Rpc> next = std::move(thread_waiters_.front());
    thread_waiters_.pop_front();
    Serve(std::move(next));
  }
  const uint64_t data = rpc->op == Op::kRead ? rpc->length : 0;
  const Nanos at = link_.Send(NfsLink::kToClient, cfg_.reply_bytes + data, engine_.now());
  engine_.At(at, [this, r = std::move(rpc), st = std::move(st)]() mutable {
    Replied(std::move(r), std::move(st));
  });
}

void Nfs::Replied(std::unique_ptr<Rpc> rpc, Status st) {
  --in_flight_;
  if (rpc->op == Op::kFlush) {
    ++commits_;
    commit_time_ += engine_.now() - rpc->sent;
  }
  if (!slot_waiters_.empty()) {
    std::unique_ptr<Rpc> next = std::move(slot_waiters_.front());
    slot_waiters_.pop_front();
    Send(std::move(next));
  } else if (slots_allocated_ > cfg_.nconnect * cfg_.min_slots) {
    --slots_allocated_;  // xprt_dynamic_free_slot()
  }
  Completion done = std::move(rpc->done);
  done(std::move(st));
}

void Nfs::OnPowerCut() {
  ++epoch_;
  in_flight_ = 0;
  slots_allocated_ = cfg_.nconnect * std::min(cfg_.min_slots, cfg_.slots);
  busy_threads_ = 0;
  slot_waiters_.clear();
  thread_waiters_.clear();
  link_.Reset(engine_.now());
  if (cache_) {
    cache_->PowerCut();
    server_dirty_->Reset();
  }
}

void Nfs::AppendStats(StatList& out) const {
  using L = NfsLink;
  static constexpr StatField<Nfs> kStats[] = {
      {"rpcs_read", kCount,
       [](const Nfs& n) { return StatNumber(n.rpcs_[static_cast<int>(Op::kRead)]); }},
      {"rpcs_write", kCount, [](const Nfs& n) { return StatNumber(n.write_rpcs()); }},
      {"rpcs_write_file_sync", kCount,
       [](const Nfs& n) { return StatNumber(n.file_sync_writes_); }},
      {"slots_high_water", kCount, [](const Nfs& n) { return StatNumber(n.slots_high_water_); }},
      {"commits", kCount, [](const Nfs& n) { return StatNumber(n.commits_); }},
      {"commit_time_ns", kNanos, [](const Nfs& n) { return StatNumber(n.commit_time_); }},
      {"bytes_to_server", kBytes,
       [](const Nfs& n) { return StatNumber(n.link_.bytes(L::kToServer)); }},
      {"bytes_to_client", kBytes,
       [](const Nfs& n) { return StatNumber(n.link_.bytes(L::kToClient)); }},
      {"link_to_server_busy_ns", kNanos,
       [](const Nfs& n) { return StatNumber(n.link_.busy(L::kToServer)); }},
      {"link_to_client_busy_ns", kNanos,
       [](const Nfs& n) { return StatNumber(n.link_.busy(L::kToClient)); }},
      {"link_payload_bytes_per_s", kBytesPerSecond,
       [](const Nfs& n) { return n.link_.payload_bytes_per_s(); }},
  };
  AppendStatTable(*this, kStats, out);
  if (cache_) {
    static constexpr StatField<Nfs> kServer[] = {
        {"server_dirty_paused_writes", kCount,
         [](const Nfs& n) { return StatNumber(n.server_dirty_->paused_writes()); }},
        {"server_dirty_paused_ns", kNanos,
         [](const Nfs& n) { return StatNumber(n.server_dirty_->paused_time()); }},
        {"server_write_bandwidth_bytes_per_s", kBytesPerSecond,
         [](const Nfs& n) { return n.server_dirty_->write_bandwidth(); }},
    };
    AppendStatTable(*this, kServer, out);
    cache_->AppendStats(out, "server_");
  }
}

std::vector<const TimeSeries*> Nfs::Series() const {
  if (cache_) return {&cache_->dirty_series()};
  return {};
}

}  // namespace storlab
