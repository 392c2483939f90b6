// Ssd: a SATA or NVMe solid-state drive, one model for both (the profile
// decides which; see SsdConfig).
//
// A command passes the host interface (controller time, link transfer,
// queue depth), then:
//  - a read looks its mapping up (a DRAM-less drive may first read a map
//    page from flash), reads its flash pages on the dies that hold them
//    (SLC or native read time, as the SLC cache knows where the data is), and
//    crosses the link back. (Data still in the write buffer is timed as a
//    flash read too: which LBAs are buffered is known only when data is
//    kept, and timing never depends on that.)
//  - a write is admitted to the write buffer when there is room (else it
//    waits: back-pressure), crosses the link and is acknowledged — its data
//    goes into the volatile Overlay. The buffer gathers data into program
//    units that go to the dies in turn, in SLC mode while the SLC cache has
//    room and at native speed after (the write cliff). A full SLC cache
//    makes room by folding the valid data of its emptiest block into native
//    cells, when that costs less die time than writing natively: a hot set
//    rewritten in SLC stays fast, a long stream of new data hits the cliff
//    (ssd_slc.h). When a program ends,
//    its data moves from the Overlay into the durable Store. The scaled FTL
//    (ssd_ftl.h) decides how much garbage collection each write forces; that
//    work is owed by the dies and slows later programs;
//  - FLUSH, without power-loss protection, closes the open unit, waits for
//    every program before it and commits the mapping journal; with PLP the
//    buffer counts as durable and FLUSH is cheap (unless flush_despite_plp).
//    FUA does the same for one write. A power cut drops the Overlay without
//    PLP, and stores it with.
//  - TRIM and write-zeroes unmap the range (utilisation drops; GC gets
//    cheaper) and take effect at once.
// When the host has been quiet for idle_delay, the drive folds SLC data into
// native cells and runs idle GC until the free pool reaches its target;
// nothing is scheduled once that is done.
//
// Per I/O the hot path is O(1): a few pipe reservations and one engine event
// (reads), or two plus a share of a program event (writes).
// Not thread-safe; runs on its engine's thread.
#ifndef STORLAB_SIM_DEVICES_SSD_H_
#define STORLAB_SIM_DEVICES_SSD_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "sim/devices/ssd_config.h"
#include "sim/devices/ssd_flash.h"
#include "sim/devices/ssd_ftl.h"
#include "sim/devices/ssd_host.h"
#include "sim/devices/ssd_map_cache.h"
#include "sim/devices/ssd_queue.h"
#include "sim/devices/ssd_slc.h"
#include "sim/devices/ssd_wear.h"
#include "sim/devices/ssd_write_buffer.h"
#include "sim/node.h"
#include "sim/random.h"
#include "sim/store/overlay.h"
#include "sim/store/store.h"

namespace storlab {

class Ssd : public Node {
 public:
  Ssd(Engine& engine, const std::string& name, const SsdConfig& config,
      std::unique_ptr<Store> store, bool keeps_data);
  ~Ssd() override;

  static constexpr NodeKind kKind = NodeKind::kSsd;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "ssd"; }
  void AppendStats(StatList& out) const override;
  // Without power-loss protection the buffer is lost at a cut.
  uint64_t volatile_bytes() const override { return config_.plp ? 0 : buffered_bytes(); }
  std::vector<const TimeSeries*> Series() const override;

  // storlab sim --state (ssd_state.cc, docs/state.md): the store, the
  // mapping (FTL), the SLC cache, GC debt, wear, the map cache, the write
  // buffer's open unit and the timelines. Saved idle: the drive has folded
  // its SLC and paid its GC debt by then, as a drive left alone does.
  bool CanSaveState() const override { return true; }
  const Store* durable_store() const override { return store_.get(); }
  Status SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;
  const SsdConfig& config() const { return config_; }
  const SsdScaledFtl& ftl() const { return ftl_; }
  const SsdSlcCache& slc() const { return slc_; }
  const SsdWear& wear() const { return wear_; }
  const SsdMapCache* map_cache() const { return map_cache_.get(); }
  // The SLC cache's size now (it shrinks as the drive fills).
  uint64_t slc_capacity() const { return slc_.capacity(ftl_.free_user_bytes()); }
  // Bytes acknowledged but not yet programmed.
  uint64_t buffered_bytes() const { return buffer_.held_bytes(); }

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;

 private:
  // ssd.cc: commands.
  void Start(uint32_t slot);
  void StartRead(uint32_t slot);
  void StartWrite(uint32_t slot);
  void StartFlush(uint32_t slot);
  void StartDiscard(uint32_t slot);
  // Looks up the map segments of [off, off+len) on a DRAM-less drive; returns
  // when the mapping is known (reads wait for it, writes do not).
  Nanos MapLookup(uint64_t off, uint64_t len, bool dirty, Nanos ready);
  void FinishAt(Nanos t, uint32_t slot);
  // The command's completion: data plane, queue, then the callback.
  void Finish(uint32_t slot);

  // ssd_programs.cc: the write buffer and the programs.
  // Takes as much of the write in `slot` into the buffer as fits; true once
  // all of it is in (its completion is then scheduled).
  bool AdmitWrite(uint32_t slot);
  void AdmitWaitingWrites();
  void AppendToUnits(uint64_t off, uint64_t len, Nanos ready);
  void OpenUnit();
  void CloseUnit();
  void ProgramDone(uint64_t seq);
  // A FLUSH or FUA write in `slot` completes once program `target` and all
  // before it have ended and the journal is committed.
  void WaitDurable(uint32_t slot, uint64_t target);
  void ReleaseDurable();
  void AddGcWork(const SsdScaledFtl::Work& work);
  // Room in SLC for one more SLC program: in the open block, in a free one,
  // or in one reclaimed now if that is worth it (fold_limit_). False: the
  // program goes to native cells.
  bool TakeSlcRoom();
  // Folds the valid data of SLC block `block` into native cells (die time
  // owed by every die) and erases it.
  void FoldSlcBlock(uint32_t block);
  void RecordSeries();

  // ssd_background.cc: idle work.
  void ArmIdle();
  void IdleStep();
  bool HasIdleWork() const;

  SsdConfig config_;
  std::unique_ptr<Store> store_;
  Overlay overlay_;
  Random cut_rng_;  // power_cut = any-subset / torn
  uint64_t map_segment_bytes_;
  SsdDivisor page_div_;

  SsdHostInterface host_;
  SsdCommandQueue queue_;
  SsdFlashArray flash_;
  SsdScaledFtl ftl_;
  SsdSlcCache slc_;
  // Reclaiming an SLC block while the host writes pays when its valid data
  // is below this many bytes (SsdConfig::slc_fold_limit).
  uint64_t fold_limit_;
  SsdWriteBuffer buffer_;
  std::unique_ptr<SsdMapCache> map_cache_;  // null: the whole map is in DRAM
  SsdWear wear_;

  std::deque<uint32_t> write_waiters_;    // writes waiting for buffer room
  std::deque<uint32_t> durable_waiters_;  // FLUSH / FUA, by target
  uint64_t committed_through_ = 0;        // journal covers programs up to here
  Nanos commit_end_;                      // ... once this commit has ended
  Engine::EventId unit_timer_;
  Engine::EventId idle_event_;
  Nanos last_activity_;
  Status media_error_;  // a Store write failed: reported by the next FLUSH
  uint64_t flush_commits_ = 0;
  TimeSeries slc_series_{"slc_used_bytes"};
  TimeSeries free_series_{"free_block_fraction"};
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_SSD_H_
