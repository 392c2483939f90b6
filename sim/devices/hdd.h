// Hdd: a hard disk drive — spindle, actuator, zoned platters, command queue,
// look-ahead buffer and a volatile write cache.
//
// What a command costs:
//   - a read the write cache or the look-ahead buffer holds: the cache-hit
//     command overhead plus the interface transfer;
//   - a read from the platters: the command overhead, then the actuator's
//     access (seek from the fitted curve, rotational wait from the spindle
//     angle at that moment, transfer at the zone's rate; hdd_mechanics.h);
//     afterwards the head reads ahead while the drive is idle
//     (hdd_read_ahead.h), so the next sequential command costs no revolution;
//   - a write with the write cache on (the default): acknowledged as soon as
//     its data is in the cache (hdd_write_cache.h); the cache is destaged to
//     the platters in the background, in simulated time, mechanically costed,
//     nearest-first and coalesced. When the cache is full, writes wait for
//     room and destaging competes with reads;
//   - a FUA write, a write with `write_cache = false`, or one larger than the
//     cache: written to the platters before it completes, replacing any older
//     cached data of its range;
//   - FLUSH: non-queued, as in SATA: it waits for the commands before it,
//     holds back those after it, and completes when the cache is empty.
// Up to `queue_depth` commands are in the drive at once (NCQ, 32 tags); the
// actuator serves them shortest-positioning-time first with an aging bound
// (hdd_scheduler.h). queue_depth = 1 serves in arrival order.
//
// Profile keys (type = "hdd", no children; read into Config by
// sim/profile/factories/hdd_factory.cc): capacity, logical_block,
// physical_block, rpm, heads, zones, outer_rate, inner_fraction;
// track_to_track, average_seek, full_stroke, settle and their write_ twins
// (hdd_seek.h); command_overhead, hit_overhead, interface_rate; queue_depth,
// ncq_age_limit, rpo_guard (hdd_scheduler.h); write_cache, cache_size,
// cache_segments, destage_window, destage_max; read_ahead (0: off).
//
// Data: the platters are the durable Store; the write cache's Overlay is
// volatile. A power cut drops the cache, the queues and the buffer, so
// exactly the acknowledged writes not yet destaged are lost.
//
// Not thread-safe: runs on its engine's thread.
#ifndef STORLAB_SIM_DEVICES_HDD_H_
#define STORLAB_SIM_DEVICES_HDD_H_

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/devices/hdd_mechanics.h"
#include "sim/devices/hdd_read_ahead.h"
#include "sim/devices/hdd_scheduler.h"
#include "sim/devices/hdd_write_cache.h"
#include "sim/node.h"
#include "sim/random.h"
#include "sim/store/power_loss.h"
#include "sim/store/store.h"

namespace storlab {

class Hdd : public Node {
 public:
  // Defaults: a 3.5" 7200 rpm CMR drive; the catalog's hdd-7200.toml gives
  // each figure with its source.
  struct Config {
    uint64_t capacity = 16'000'000'000'000;  // Seagate IronWolf ST16000VN001 datasheet
    uint32_t logical_block = 512;            // 512e (same)
    uint32_t physical_block = 4096;          // same
    uint32_t rpm = 7200;                     // same
    uint32_t heads = 18;                     // assumed: 9 platters (Exos X16 platform)
    uint32_t zones = 30;                     // as the Hitachi Deskstar 7K500 spec's 30 zones
    double outer_rate = 210e6;               // bytes/s; IronWolf 16 TB datasheet
    double inner_fraction = 0.47;            // Seagate Constellation ES.3 inner/outer
    // Read and write seek figures: WD Ultrastar DC HC310 OEM spec rev 1.4
    // (single track, average); full stroke within the 15–22 ms of the
    // Hitachi 7K320 / IBM Deskstar 60GXP specs; settle fitted (hdd-7200.toml).
    SeekCurve::Figures read_seek{Nanos(230'000), Nanos(7'400'000), Nanos(16'000'000),
                                 Nanos(500'000)};
    SeekCurve::Figures write_seek{Nanos(320'000), Nanos(8'200'000), Nanos(17'000'000),
                                  Nanos(600'000)};
    Nanos command_overhead = Nanos(100'000);  // IBM Ultrastar 146Z10 spec: < 400 µs (miss)
    Nanos hit_overhead = Nanos(30'000);       // same spec: < 30 µs (cache hit)
    // With a --seed other than 1, each seek takes up to this much longer or
    // shorter than its curve says (Jitter): assumed, inside rpo_guard, the
    // margin the drive's scheduler keeps for seek-time variation. Enough to
    // make a sector just caught or just missed by a revolution.
    Nanos seek_jitter = Nanos(300'000);
    uint64_t seed = 1;              // not a profile key: the run's --seed
    double interface_rate = 600e6;  // bytes/s; SATA 6 Gb/s, 8b/10b
    uint32_t queue_depth = 32;      // NCQ tags (SATA/AHCI)
    // Age limit assumed (1 s); guard fitted to measurements (hdd-7200.toml).
    SchedulerPolicy scheduler{Nanos(1'000'000'000), Nanos(500'000)};
    bool write_cache = true;                    // drives ship with WCE on
    uint64_t cache_size = uint64_t{256} << 20;  // IronWolf 16 TB datasheet: 256 MB
    uint32_t cache_segments = 512;              // fitted (hdd-7200.toml)
    uint32_t destage_window = 32;               // fitted (hdd-7200.toml)
    uint64_t destage_max = uint64_t{1} << 20;   // assumed
    uint64_t read_ahead = uint64_t{2} << 20;    // assumed
    // What a power cut leaves of the write cache (sim/store/power_loss.h):
    // not a datasheet figure, a choice of what to test.
    PowerCutMode power_cut = PowerCutMode::kDrop;
  };

  Hdd(Engine& engine, std::string name, const Config& c, HddMechanics mech,
      std::unique_ptr<Store> store);

  static constexpr NodeKind kKind = NodeKind::kHdd;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "hdd"; }
  void AppendStats(StatList& out) const override;
  uint64_t volatile_bytes() const override { return cache_.dirty_bytes(); }
  std::vector<const TimeSeries*> Series() const override { return {&dirty_series_}; }

  // storlab sim --state (docs/state.md): its store, the write cache, where the head rests, the
  // read-ahead buffer, the interface and its generators.
  bool CanSaveState() const override { return true; }
  const Store* durable_store() const override { return store_.get(); }
  Status SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;
  const Config& config() const { return c_; }
  const HddMechanics& mechanics() const { return mech_; }
  const HddWriteCache& write_cache() const { return cache_; }
  Store& store() { return *store_; }

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;

 private:
  enum class JobKind { kRead, kWrite, kDestage, kStreamRead };
  struct Job {
    JobKind kind = JobKind::kRead;
    Request req;  // host jobs only
    uint64_t offset = 0, length = 0;
    Nanos arrival;
  };

  // Admits commands from the host queue while tags are free (FLUSH alone).
  void Admit();
  // A command enters the drive.
  void Accept(Request req);
  void AcceptCachedWrite(Request req);
  // Takes a write into the cache: acknowledged once its data is across the
  // interface. REQUIRES: cache_.HasRoom(req.length).
  void AckIntoCache(Request req);
  // Completes `req` at `at` from the buffer or cache (no actuator).
  void CompleteHit(Request req, Nanos at);
  // Chooses the actuator's next access, if any.
  void Dispatch();
  bool TryFollowStream();
  // A host command has waited the scheduler's age limit or longer.
  bool AnyAged(Nanos now) const;
  void StartJob(Job job, Nanos end);
  void OnJobDone();
  void OnDestaged(const Job& job);
  void MaybeFinishFlush();
  // A host command left the drive: frees its tag and admits more.
  void Release();
  Status ReadData(const Request& req) const;
  Status WriteThrough(const Request& req);
  Nanos InterfaceDone(Nanos from, uint64_t bytes);
  void ArmTimer(Nanos at);
  uint64_t Lba(uint64_t offset) const { return offset / ZonedLayout::kSector; }
  uint64_t Sectors(uint64_t length) const { return length / ZonedLayout::kSector; }

  Config c_;
  HddMechanics mech_;
  std::unique_ptr<Store> store_;
  Random cut_rng_;  // power_cut = any-subset / torn
  HddWriteCache cache_;
  HddReadAhead read_ahead_;
  Jitter seek_jitter_;

  std::deque<Request> host_queue_;  // waiting for a tag, in arrival order
  uint32_t tags_ = 0;               // commands in the drive
  std::optional<Request> flush_;    // the FLUSH being served
  bool flush_finishing_ = false;
  std::vector<Job> queue_;       // commands waiting for the actuator
  std::deque<Request> blocked_;  // writes waiting for cache room
  std::optional<Job> current_;   // the actuator's access in progress
  Nanos interface_free_;
  bool timer_armed_ = false;
  std::vector<AccessCandidate> candidates_;    // scratch
  std::vector<HddWriteCache::Extent> pieces_;  // scratch

  struct Counters {
    uint64_t media_ops = 0, seeks = 0, seek_cylinders = 0;
    Nanos seek_time, rotate_time, media_busy;
    uint64_t cache_read_hits = 0, read_ahead_hits = 0, stream_reads = 0;
    uint64_t cached_writes = 0, blocked_writes = 0, write_through = 0;
    uint64_t destage_ops = 0, destaged_bytes = 0, flushes = 0, aged_picks = 0;
  } n_;
  TimeSeries dirty_series_{"dirty_bytes"};
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_HDD_H_
