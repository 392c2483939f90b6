#include "sim/devices/hdd.h"

#include <cmath>
#include <utility>

#include "sim/stat_table.h"

namespace storlab {

Hdd::Hdd(Engine& engine, std::string name, const Config& c, HddMechanics mech,
         std::unique_ptr<Store> store)
    : Node(engine, std::move(name)),
      c_(c),
      mech_(std::move(mech)),
      store_(std::move(store)),
      cut_rng_(c.seed, this->name() + "/power_cut"),
      cache_(c.cache_size, c.cache_segments, store_->keeps_data()),
      read_ahead_(&mech_.layout(), c.read_ahead / ZonedLayout::kSector),
      seek_jitter_(c.seed, this->name() + "/seek", static_cast<double>(c.seek_jitter.count())) {
  geometry_.capacity = c.capacity;
  geometry_.logical_block = c.logical_block;
  geometry_.physical_block = c.physical_block;
  caps_.rotational = true;
  caps_.volatile_cache = c.write_cache;
  traces_volatile_ = true;  // TraceDurable at each destage
  caps_.queue_depth = c.queue_depth;
}

void Hdd::DoSubmit(Request req) {
  host_queue_.push_back(std::move(req));
  Admit();
}

void Hdd::Admit() {
  while (!host_queue_.empty() && !flush_) {
    if (host_queue_.front().op == Op::kFlush) {
      // Non-queued: it waits for every command before it.
      if (tags_ > 0) return;
      flush_ = std::move(host_queue_.front());
      host_queue_.pop_front();
      ++tags_;
      ++n_.flushes;
      MaybeFinishFlush();
      Dispatch();
      return;
    }
    if (tags_ >= c_.queue_depth) return;
    Request r = std::move(host_queue_.front());
    host_queue_.pop_front();
    ++tags_;
    Accept(std::move(r));
  }
}

void Hdd::Accept(Request req) {
  const Nanos now = engine_.now();
  if (req.op == Op::kRead) {
    if (cache_.Covers(req.offset, req.length)) {
      ++n_.cache_read_hits;
      const Nanos at = InterfaceDone(now + c_.hit_overhead, req.length);
      CompleteHit(std::move(req), at);
      return;
    }
    if (read_ahead_.Holds(Lba(req.offset), Sectors(req.length), now)) {
      ++n_.read_ahead_hits;
      const Nanos at = InterfaceDone(now + c_.hit_overhead, req.length);
      CompleteHit(std::move(req), at);
      return;
    }
    queue_.push_back({JobKind::kRead, std::move(req), 0, 0, now});
  } else if (req.op == Op::kWrite || req.op == Op::kWriteZeroes) {
    if (c_.write_cache && !req.fua() && req.length <= c_.cache_size) {
      AcceptCachedWrite(std::move(req));
      return;
    }
    ++n_.write_through;
    queue_.push_back({JobKind::kWrite, std::move(req), 0, 0, now});
  } else {
    // Validate() lets no trim through (caps_.trim is false); be safe anyway.
    CompleteHit(std::move(req), now);
    return;
  }
  Job& j = queue_.back();
  j.offset = j.req.offset;
  j.length = j.req.length;
  Dispatch();
}

void Hdd::AcceptCachedWrite(Request req) {
  if (!blocked_.empty() || !cache_.HasRoom(req.length)) {
    ++n_.blocked_writes;
    blocked_.push_back(std::move(req));
    Dispatch();
    return;
  }
  AckIntoCache(std::move(req));
}

void Hdd::AckIntoCache(Request req) {
  cache_.Reserve(req.length);
  const Nanos after_cmd = engine_.now() + c_.hit_overhead;
  const Nanos at = req.op == Op::kWrite ? InterfaceDone(after_cmd, req.length) : after_cmd;
  engine_.At(at, [this, r = std::move(req)]() mutable {
    cache_.Put(r.offset, r.length, r.data, r.op == Op::kWriteZeroes);
    ++n_.cached_writes;
    dirty_series_.Record(engine_.now(), static_cast<double>(cache_.dirty_bytes()));
    Release();
    Dispatch();
    r.done(Status());
  });
}

void Hdd::CompleteHit(Request req, Nanos at) {
  engine_.At(at, [this, r = std::move(req)]() mutable {
    Status st = r.op == Op::kRead ? ReadData(r) : Status::NotSupported(name() + ": not supported");
    Release();
    r.done(std::move(st));
  });
}

Nanos Hdd::InterfaceDone(Nanos from, uint64_t bytes) {
  interface_free_ = Max(from, interface_free_) + TransferTime(bytes, c_.interface_rate);
  return interface_free_;
}

void Hdd::Dispatch() {
  if (current_) return;
  const Nanos now = engine_.now();
  const bool urgent = !blocked_.empty() || flush_.has_value();
  const bool destage = !cache_.empty() && (urgent || queue_.empty());
  if (queue_.empty() && !destage) return;  // idle: the head may read ahead
  if (read_ahead_.streaming(now)) {
    // Following the stream costs no seek, but it must not starve the
    // others: once a command has aged out, the scheduler's age rule
    // (hdd_scheduler.h) goes first, as it does against near candidates.
    if (!AnyAged(now) && TryFollowStream()) return;
    if (queue_.empty() && !urgent) {
      // Only background destaging: let the look-ahead fill its window first.
      ArmTimer(read_ahead_.window_full_at());
      return;
    }
  }
  if (read_ahead_.active()) mech_.MoveHead(read_ahead_.Stop(now));

  candidates_.clear();
  for (const Job& j : queue_) {
    candidates_.push_back({Lba(j.offset), Sectors(j.length), j.kind == JobKind::kWrite,
                           j.arrival + c_.command_overhead, j.arrival});
  }
  const size_t host = candidates_.size();
  if (destage) {
    cache_.Nearest(mech_.head_lba() * ZonedLayout::kSector, c_.destage_window, c_.destage_max,
                   &pieces_);
    for (const auto& p : pieces_) {
      candidates_.push_back({Lba(p.offset), Sectors(p.length), true, now, Nanos::Max()});
    }
  }
  const AccessChoice ch = PickNextAccess(candidates_, mech_, now, c_.scheduler);
  Job job;
  if (ch.index < host) {
    job = std::move(queue_[ch.index]);
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(ch.index));
  } else {
    job.kind = JobKind::kDestage;
    job.offset = pieces_[ch.index - host].offset;
    job.length = pieces_[ch.index - host].length;
  }
  HddMechanics::Access a = ch.access;
  if (a.distance > 0) {
    // The seek as it happens: the scheduler chose by the curve's time.
    const double jitter = seek_jitter_.Next();
    if (jitter != 0) a = mech_.Jittered(a, candidates_[ch.index].lba, Nanos(std::llround(jitter)));
  }
  n_.aged_picks += ch.aged ? 1 : 0;
  ++n_.media_ops;
  if (a.distance > 0) ++n_.seeks;
  n_.seek_cylinders += a.distance;
  n_.seek_time += a.seek;
  n_.rotate_time += a.rotate;
  n_.media_busy += a.end() - now;
  mech_.MoveHead(candidates_[ch.index].lba + candidates_[ch.index].sectors);
  StartJob(std::move(job), a.end());
}

bool Hdd::AnyAged(Nanos now) const {
  for (const Job& j : queue_) {
    if (now - j.arrival >= c_.scheduler.age_limit) return true;
  }
  return false;
}

bool Hdd::TryFollowStream() {
  const Nanos now = engine_.now();
  for (size_t i = 0; i < queue_.size(); ++i) {
    const Job& j = queue_[i];
    if (j.kind != JobKind::kRead) continue;
    const uint64_t lba = Lba(j.offset), n = Sectors(j.length);
    if (!read_ahead_.CanFollow(lba, n, now)) continue;
    // The head is already reading towards it: no seek, no lost revolution.
    const Nanos end = Max(read_ahead_.Follow(lba, n, now), j.arrival + c_.hit_overhead);
    Job job = std::move(queue_[i]);
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(i));
    job.kind = JobKind::kStreamRead;
    ++n_.stream_reads;
    n_.media_busy += end - now;
    StartJob(std::move(job), end);
    return true;
  }
  return false;
}

void Hdd::StartJob(Job job, Nanos end) {
  current_ = std::move(job);
  engine_.At(end, [this] { OnJobDone(); });
}

void Hdd::OnJobDone() {
  Job job = std::move(*current_);
  current_.reset();
  if (job.kind == JobKind::kDestage) {
    OnDestaged(job);
    return;
  }
  Status st;
  if (job.kind == JobKind::kWrite) {
    st = WriteThrough(job.req);
  } else {
    // The head reads on from where this read ended (a stream read keeps its stream).
    if (job.kind == JobKind::kRead) read_ahead_.Start(mech_.head_lba(), engine_.now());
    st = ReadData(job.req);
  }
  Release();
  Dispatch();
  job.req.done(std::move(st));
}

void Hdd::OnDestaged(const Job& job) {
  Status st = cache_.Destage(job.offset, job.length, *store_);
  (void)st;  // a store error here has no command to report it to
  TraceDurable(job.offset, job.length);
  ++n_.destage_ops;
  n_.destaged_bytes += job.length;
  dirty_series_.Record(engine_.now(), static_cast<double>(cache_.dirty_bytes()));
  // Room freed: the waiting writes go in, in their order.
  while (!blocked_.empty() && cache_.HasRoom(blocked_.front().length)) {
    Request r = std::move(blocked_.front());
    blocked_.pop_front();
    AckIntoCache(std::move(r));
  }
  MaybeFinishFlush();
  Dispatch();
}

void Hdd::MaybeFinishFlush() {
  if (!flush_ || flush_finishing_ || !cache_.empty() || current_) return;
  flush_finishing_ = true;
  engine_.After(c_.hit_overhead, [this] {
    Request f = std::move(*flush_);
    flush_.reset();
    flush_finishing_ = false;
    Release();
    f.done(Status());
  });
}

void Hdd::Release() {
  --tags_;
  Admit();
}

Status Hdd::ReadData(const Request& req) const {
  if (req.data == nullptr) return Status();
  RETURN_IF_ERROR(store_->Read(req.offset, req.length, req.data));
  cache_.Patch(req.offset, req.length, req.data);
  return Status();
}

Status Hdd::WriteThrough(const Request& req) {
  Status st;
  if (req.op == Op::kWriteZeroes) {
    st = store_->Zero(req.offset, req.length);
  } else if (req.data != nullptr) {
    st = store_->Write(req.offset, req.length, req.data);
  }
  // Older cached data of the range must never be destaged over this.
  cache_.Discard(req.offset, req.length);
  return st;
}

void Hdd::ArmTimer(Nanos at) {
  if (timer_armed_) return;
  timer_armed_ = true;
  engine_.At(at, [this] {
    timer_armed_ = false;
    Dispatch();
  });
}

void Hdd::OnPowerCut() {
  host_queue_.clear();
  tags_ = 0;
  flush_.reset();
  flush_finishing_ = false;
  queue_.clear();
  blocked_.clear();
  current_.reset();
  if (c_.power_cut != PowerCutMode::kDrop) {
    // A store error has no command to report it to, as for a destage.
    (void)cache_.LosePower(*store_, c_.power_cut, c_.logical_block, cut_rng_);
  }
  cache_.Clear();
  read_ahead_.Clear();
  interface_free_ = engine_.now();
  timer_armed_ = false;
  dirty_series_.Record(engine_.now(), 0);
}

void Hdd::AppendStats(StatList& out) const {
  // Per media operation: 0 before the first.
  static constexpr auto kPerOp = [](const Counters& c, double v) {
    return c.media_ops ? v / static_cast<double>(c.media_ops) : 0;
  };
  static constexpr StatField<Counters> kMedia[] = {
      Field<&Counters::media_ops>("media_ops", kCount),
      Field<&Counters::seeks>("seeks", kCount),
      {"mean_seek_cylinders", kCylinders,
       [](const Counters& c) { return kPerOp(c, StatNumber(c.seek_cylinders)); }},
      {"mean_seek_ms", kMillis, [](const Counters& c) { return kPerOp(c, c.seek_time.millis()); }},
      {"mean_rotational_ms", kMillis,
       [](const Counters& c) { return kPerOp(c, c.rotate_time.millis()); }},
      Field<&Counters::media_busy>("media_busy_ns", kNanos),
      Field<&Counters::cache_read_hits>("cache_read_hits", kCount),
      Field<&Counters::read_ahead_hits>("read_ahead_hits", kCount),
      Field<&Counters::stream_reads>("stream_reads", kCount),
      Field<&Counters::cached_writes>("cached_writes", kCount),
      Field<&Counters::blocked_writes>("blocked_writes", kCount),
      Field<&Counters::write_through>("write_through_writes", kCount),
  };
  static constexpr StatField<Hdd> kCache[] = {
      {"dirty_bytes", kBytes, [](const Hdd& h) { return StatNumber(h.cache_.dirty_bytes()); }},
      {"dirty_extents", kCount, [](const Hdd& h) { return StatNumber(h.cache_.extents()); }},
  };
  static constexpr StatField<Counters> kDestage[] = {
      Field<&Counters::destage_ops>("destage_ops", kCount),
      Field<&Counters::destaged_bytes>("destaged_bytes", kBytes),
      Field<&Counters::flushes>("flushes", kCount),
      Field<&Counters::aged_picks>("aged_picks", kCount),
  };
  AppendStatTable(n_, kMedia, out);
  AppendStatTable(*this, kCache, out);
  AppendStatTable(n_, kDestage, out);
}

}  // namespace storlab
