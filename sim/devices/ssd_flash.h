// SsdFlashArray: the NAND behind an SSD controller — channels × dies ×
// planes, each busy in simulated time.
//
// Reads are striped: logical flash page p lives on read unit p mod (dies ×
// planes), spread over channels first, then dies, then planes, so a long
// read engages every channel and random reads land uniformly. A plane reads
// independently of the others (modern 3D NAND's independent plane reads).
// A program stores one unit (SLC: page × planes; native: page × planes ×
// cell_bits) on one die and occupies all of its planes; programs go to the
// dies in turn, as the controller stripes its write stream. Every transfer
// also crosses the die's channel (an SsdPipe).
//
// Background work — garbage-collection copies and erases, SLC folding — is
// owed by every die as a debt of die time. A die pays part of its debt before
// each host program (so foreground GC slows writes by exactly the work it
// costs), and the idle loop pays it in quanta (WorkOff). Only die time is
// tracked: no page contents, no per-page state. Not thread-safe.
#ifndef STORLAB_SIM_DEVICES_SSD_FLASH_H_
#define STORLAB_SIM_DEVICES_SSD_FLASH_H_

#include <cstdint>
#include <vector>

#include "sim/devices/ssd_config.h"
#include "sim/devices/ssd_pipe.h"
#include "sim/random.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class StateReader;
class StateWriter;

class SsdFlashArray {
 public:
  explicit SsdFlashArray(const SsdConfig& config);
  SsdFlashArray(const SsdFlashArray&) = delete;
  SsdFlashArray& operator=(const SsdFlashArray&) = delete;

  // storlab sim --state (ssd_state.cc): the dies' and channels' timelines, the write order, the GC
  // debt and the jitter's generators; read back into a fresh one.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);
  uint32_t dies() const { return dies_; }
  uint64_t page_size() const { return page_size_; }

  // Reads `bytes` of logical flash page `page`, ready to start at `ready`.
  // Returns when the data has crossed the channel into the controller.
  // REQUIRES: ready >= now, bytes <= page_size().
  Nanos ReadPage(Nanos now, uint64_t page, uint64_t bytes, bool slc, Nanos ready);
  // Reads the mapping-table page of map segment `segment` (kept in SLC).
  Nanos ReadMapPage(Nanos now, uint64_t segment, Nanos ready);
  // Programs one unit of `bytes` on the next die in write order, after the
  // data crosses the channel; returns when the program ends.
  Nanos Program(Nanos now, uint64_t bytes, bool slc, Nanos ready);
  // Programs a mapping-table page (SLC) on the die of map segment `segment`.
  Nanos ProgramMapPage(Nanos now, uint64_t segment);
  // Occupies die `die` (all planes) for `t` starting no earlier than
  // `ready`; returns the end. For a FLUSH's journal commit.
  Nanos Occupy(Nanos now, uint32_t die, Nanos ready, Nanos t);
  // The die the next program goes to (round robin over all dies).
  uint32_t NextDie() {
    uint32_t d = next_die_;
    if (++next_die_ == dies_) next_die_ = 0;
    return d;
  }

  // Background work: every die owes `per_die` more die time.
  void AddWork(Nanos per_die) { debt_per_die_ += per_die; }
  // Each die works off up to `quantum` of its debt, starting when it is
  // free. Returns when the last of them is done (now if nothing was owed).
  Nanos WorkOff(Nanos now, Nanos quantum);
  Nanos owed(uint32_t die) const { return debt_per_die_ - paid_[die]; }
  bool owes() const { return debt_per_die_ * dies_ > paid_total_; }

  // When die `die` finishes what is reserved on it.
  Nanos die_free(uint32_t die) const;
  // Total die time reserved, summed over dies (for utilisation).
  Nanos die_busy() const { return die_busy_; }
  // A power cut: reservations are forgotten. Debts stay: the copies the FTL
  // has decided on are still to be done after power returns.
  void Reset();

 private:
  // Sets every plane of `die` free at `t`.
  void HoldDie(uint32_t die, Nanos t);
  // Die time to pay before a host program on `die`.
  Nanos Installment(uint32_t die) const;

  uint32_t dies_;
  uint32_t planes_;
  uint64_t page_size_;
  SsdDivisor units_div_, dies_div_, channels_div_;
  SsdByteTime channel_time_;
  Nanos read_time_, slc_read_time_, program_time_, slc_program_time_;
  std::vector<Nanos> plane_free_;  // [die * planes + plane]
  std::vector<SsdPipe> channel_;
  uint32_t next_die_ = 0;
  Jitter program_jitter_;  // in units of a program's time
  Nanos debt_per_die_;
  std::vector<Nanos> paid_;
  Nanos paid_total_;
  Nanos die_busy_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_SSD_FLASH_H_
