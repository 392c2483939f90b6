#include "sim/devices/ssd.h"

#include <algorithm>

#include "sim/stat_table.h"

namespace storlab {

Ssd::Ssd(Engine& engine, const std::string& name, const SsdConfig& config,
         std::unique_ptr<Store> store, bool keeps_data)
    : Node(engine, name),
      config_(config),
      store_(std::move(store)),
      overlay_(keeps_data),
      cut_rng_(config.seed, name + "/power_cut"),
      // A map page holds page_size / 4 entries of 4 bytes, each mapping 4 KiB.
      map_segment_bytes_(config.page_size / 4 * 4096),
      page_div_(config.page_size),
      host_(config),
      queue_(config.queue_depth, config.interface == SsdConfig::Interface::kSata),
      flash_(config),
      ftl_(config.capacity, config.raw_bytes() - config.slc_static * config.cell_bits),
      slc_(config.slc_static, config.slc_dynamic, config.cell_bits, config.slc_block_bytes(),
           config.capacity),
      fold_limit_(config.slc_fold_limit()),
      buffer_(config.write_buffer, keeps_data) {
  geometry_.capacity = config.capacity;
  geometry_.logical_block = config.logical_block;
  geometry_.physical_block = config.physical_block;
  caps_.trim = true;
  caps_.volatile_cache = config.flush_programs();
  traces_volatile_ = true;  // TraceDurable at each program
  caps_.queue_depth = config.queue_depth;
  if (config.map_cache != 0) {
    const uint64_t segments = (config.capacity + map_segment_bytes_ - 1) / map_segment_bytes_;
    const uint64_t cached = std::max<uint64_t>(1, config.map_cache / config.page_size);
    if (cached < segments) map_cache_ = std::make_unique<SsdMapCache>(segments, cached);
  }
  if (config.prefill > 0) ftl_.Fill(config.prefill);
}

Ssd::~Ssd() = default;

void Ssd::DoSubmit(Request req) {
  last_activity_ = engine_.now();
  uint32_t slot;
  if (queue_.Arrive(std::move(req), &slot)) Start(slot);
}

void Ssd::Start(uint32_t slot) {
  switch (queue_.at(slot).req.op) {
    case Op::kRead:
      return StartRead(slot);
    case Op::kWrite:
      return StartWrite(slot);
    case Op::kFlush:
      return StartFlush(slot);
    case Op::kTrim:
    case Op::kWriteZeroes:
      return StartDiscard(slot);
  }
}

Nanos Ssd::MapLookup(uint64_t off, uint64_t len, bool dirty, Nanos ready) {
  if (!map_cache_) return ready;
  const Nanos now = engine_.now();
  const uint64_t last = (off + len - 1) / map_segment_bytes_;
  for (uint64_t s = off / map_segment_bytes_; s <= last; ++s) {
    const SsdMapCache::Outcome o = map_cache_->Access(s, dirty);
    if (o.hit) continue;
    const Nanos loaded = flash_.ReadMapPage(now, s, ready);
    if (!dirty) ready = loaded;  // a read needs the mapping; a write is buffered
    if (o.evicted_dirty) {
      flash_.ProgramMapPage(now, o.evicted);
      wear_.nand_bytes_written += config_.page_size;
      wear_.map_bytes_written += config_.page_size;
    }
  }
  return ready;
}

void Ssd::StartRead(uint32_t slot) {
  const Nanos now = engine_.now();
  const Request& r = queue_.at(slot).req;
  Nanos ready = MapLookup(r.offset, r.length, false, host_.Command(now, Op::kRead));
  const uint64_t page = page_div_.value();
  const uint64_t end = r.offset + r.length;
  Nanos data = ready;
  for (uint64_t p = page_div_.Div(r.offset); p * page < end; ++p) {
    const uint64_t lo = std::max(r.offset, p * page), hi = std::min(end, (p + 1) * page);
    data = Max(data, flash_.ReadPage(now, p, hi - lo, slc_.Holds(lo), ready));
  }
  FinishAt(host_.ToHost(now, data, r.length), slot);
}

void Ssd::StartWrite(uint32_t slot) {
  SsdCommand& c = queue_.at(slot);
  c.ready = host_.Command(engine_.now(), Op::kWrite);
  if (!write_waiters_.empty() || !AdmitWrite(slot)) write_waiters_.push_back(slot);
}

void Ssd::StartFlush(uint32_t slot) {
  SsdCommand& c = queue_.at(slot);
  c.ready = host_.Command(engine_.now(), Op::kFlush);
  // With PLP the buffer survives a power cut: nothing to do.
  if (!config_.flush_programs()) return FinishAt(c.ready, slot);
  if (buffer_.has_open()) CloseUnit();
  WaitDurable(slot, buffer_.last_closed());
}

void Ssd::StartDiscard(uint32_t slot) {
  const Request& r = queue_.at(slot).req;
  const Nanos t = host_.Command(engine_.now(), r.op);
  if (r.op == Op::kTrim || !(r.flags & kNoUnmap)) {
    ftl_.Trim(r.offset, r.length);
    slc_.Trim(r.offset, r.length);
  }
  FinishAt(t, slot);
}

void Ssd::FinishAt(Nanos t, uint32_t slot) {
  engine_.At(t, [this, slot] { Finish(slot); });
}

void Ssd::Finish(uint32_t slot) {
  const Request& r = queue_.at(slot).req;
  Status st;
  switch (r.op) {
    case Op::kRead:
      if (r.data) {
        st = store_->Read(r.offset, r.length, r.data);
        overlay_.Patch(r.offset, r.length, r.data);
      }
      break;
    case Op::kWrite:
      // The data entered the overlay as the buffer took it (AdmitWrite).
      if (r.fua() && config_.flush_programs()) {
        st = overlay_.DrainTo(*store_, r.offset, r.length);
      }
      break;
    case Op::kTrim:
    case Op::kWriteZeroes:
      overlay_.Erase(r.offset, r.length);
      st = store_->Zero(r.offset, r.length);
      break;
    case Op::kFlush:
      if (!media_error_.ok()) st = std::exchange(media_error_, Status());
      break;
  }
  Request done = queue_.Finish(slot);
  for (uint32_t next; queue_.NextStartable(&next);) Start(next);
  if (queue_.idle()) ArmIdle();
  done.done(std::move(st));
}

void Ssd::OnPowerCut() {
  if (config_.plp) {
    // The capacitors hold the drive up while it programs its buffer.
    Status st = overlay_.DrainAllTo(*store_);
    if (!st.ok()) media_error_ = st;
  } else {
    auto landed = LosePower(overlay_, *store_, config_.power_cut, config_.logical_block, cut_rng_);
    if (!landed.ok()) media_error_ = landed.status();
  }
  queue_.Clear();
  write_waiters_.clear();
  durable_waiters_.clear();
  buffer_.Clear();
  committed_through_ = buffer_.last_closed();
  commit_end_ = Nanos(0);
  flash_.Reset();
  host_.Reset();
  if (map_cache_) map_cache_->Clear();
  unit_timer_ = {};
  idle_event_ = {};
  last_activity_ = engine_.now();
  ArmIdle();  // powered on again: SLC folding and GC resume when idle
}

void Ssd::AppendStats(StatList& out) const {
  static constexpr StatField<Ssd> kStats[] = {
      {"host_bytes_written", kBytes,
       [](const Ssd& x) { return StatNumber(x.wear_.host_bytes_written); }},
      {"nand_bytes_written", kBytes,
       [](const Ssd& x) { return StatNumber(x.wear_.nand_bytes_written); }},
      {"write_amplification", kRatio, [](const Ssd& x) { return x.wear_.write_amplification(); }},
      {"gc_copied_bytes", kBytes, [](const Ssd& x) { return StatNumber(x.wear_.gc_copied_bytes); }},
      {"slc_folded_bytes", kBytes, [](const Ssd& x) { return StatNumber(x.wear_.fold_bytes); }},
      {"map_bytes_written", kBytes,
       [](const Ssd& x) { return StatNumber(x.wear_.map_bytes_written); }},
      {"block_erases", kCount,  // whole blocks
       [](const Ssd& x) { return StatNumber(x.wear_.erased_bytes / x.config_.block_size); }},
      {"percentage_used", kPercent,
       [](const Ssd& x) {
         return x.wear_.percentage_used(x.config_.raw_bytes(), x.config_.rated_pe_cycles);
       }},
      {"slc_used_bytes", kBytes, [](const Ssd& x) { return StatNumber(x.slc_.used()); }},
      {"slc_valid_bytes", kBytes, [](const Ssd& x) { return StatNumber(x.slc_.valid_bytes()); }},
      {"slc_capacity_bytes", kBytes, [](const Ssd& x) { return StatNumber(x.slc_capacity()); }},
      {"slc_blocks_reclaimed", kCount,
       [](const Ssd& x) { return StatNumber(x.slc_.reclaimed_blocks()); }},
      {"valid_bytes", kBytes, [](const Ssd& x) { return StatNumber(x.ftl_.valid_bytes()); }},
      {"free_block_fraction", kRatio, [](const Ssd& x) { return x.ftl_.free_block_fraction(); }},
      {"buffered_bytes", kBytes, [](const Ssd& x) { return StatNumber(x.buffer_.held_bytes()); }},
      {"flush_commits", kCount, [](const Ssd& x) { return StatNumber(x.flush_commits_); }},
      {"flash_busy_ns", kNanos, [](const Ssd& x) { return StatNumber(x.flash_.die_busy()); }},
      {"link_busy_ns", kNanos, [](const Ssd& x) { return StatNumber(x.host_.link_busy()); }},
  };
  static constexpr StatField<SsdMapCache> kMapCache[] = {
      {"map_cache_hits", kCount, [](const SsdMapCache& m) { return StatNumber(m.hits()); }},
      {"map_cache_misses", kCount, [](const SsdMapCache& m) { return StatNumber(m.misses()); }},
  };
  AppendStatTable(*this, kStats, out);
  if (map_cache_) AppendStatTable(*map_cache_, kMapCache, out);
}

std::vector<const TimeSeries*> Ssd::Series() const { return {&slc_series_, &free_series_}; }

}  // namespace storlab
