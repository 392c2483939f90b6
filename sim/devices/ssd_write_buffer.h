// SsdWriteBuffer: the controller memory (DRAM, or SRAM on a DRAM-less
// drive) that holds acknowledged writes until the flash has programmed them,
// and the programs in flight.
//
// Writes are admitted while there is room, gathered into the open program
// unit (one SLC or native program's worth), and the unit is closed when it
// is full — or earlier, padded, by a FLUSH, a FUA write or a timeout. Closed
// units are programs in flight, numbered in order; a program frees its bytes
// when it ends. Programs on different dies end out of order, so the buffer
// keeps the number up to which every program has ended: a FLUSH waits for
// that to reach the last unit closed before it. Host ranges are kept per unit
// only when the run keeps data (to move them from the Overlay to the Store
// as the program ends). Not thread-safe.
#ifndef STORLAB_SIM_DEVICES_SSD_WRITE_BUFFER_H_
#define STORLAB_SIM_DEVICES_SSD_WRITE_BUFFER_H_

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class StateReader;
class StateWriter;

class SsdWriteBuffer {
 public:
  using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;  // (offset, length)
  struct Unit {
    uint64_t seq = 0;
    uint64_t size = 0;        // program size (data + padding)
    uint64_t data_bytes = 0;  // host data in it
    bool slc = false;
    bool done = false;
    Nanos ready;    // when its last data is in the buffer
    Ranges ranges;  // host ranges, if keeping data
  };

  SsdWriteBuffer(uint64_t capacity, bool keep_ranges)
      : capacity_(capacity), keep_ranges_(keep_ranges) {}
  SsdWriteBuffer(const SsdWriteBuffer&) = delete;
  SsdWriteBuffer& operator=(const SsdWriteBuffer&) = delete;
  // Keeps host ranges from now on (a trace needs them in timing-only runs).
  void KeepRanges() { keep_ranges_ = true; }

  // Admission: a write of `len` fits now (an empty buffer takes anything).
  bool HasRoom(uint64_t len) const { return held_ == 0 || held_ + len <= capacity_; }
  void Hold(uint64_t len) { held_ += len; }

  // The open unit.
  bool has_open() const { return open_.size != 0; }
  // REQUIRES: !has_open().
  void Open(uint64_t size, bool slc);
  // Puts as much of [off, off+len) as fits into the open unit; returns how
  // many bytes it took. REQUIRES: has_open().
  uint64_t Fill(uint64_t off, uint64_t len, Nanos ready);
  bool open_full() const { return open_.data_bytes == open_.size; }
  uint64_t open_seq() const { return open_.seq; }
  bool open_slc() const { return open_.slc; }
  // Closes the open unit (padding it) and makes it a program in flight.
  // REQUIRES: has_open().
  Unit& Close();

  // Program `seq` has ended: its bytes leave the buffer. Returns the unit.
  // REQUIRES: `seq` is in flight and not done yet.
  Unit Done(uint64_t seq);
  // Every program up to and including this number has ended.
  uint64_t durable_through() const { return durable_through_; }
  // The number of the last unit closed (0: none yet).
  uint64_t last_closed() const { return next_seq_ - 1; }
  bool programs_pending() const { return !in_flight_.empty(); }

  // storlab sim --state (ssd_state.cc): what is held, the open unit and the program numbers
  // (REQUIRES: no program in flight); read back into a fresh one.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);
  uint64_t held_bytes() const { return held_; }
  uint64_t capacity() const { return capacity_; }
  // A power cut: everything held and in flight is forgotten.
  void Clear();

 private:
  uint64_t capacity_;
  bool keep_ranges_;
  uint64_t held_ = 0;
  uint64_t next_seq_ = 1;
  uint64_t durable_through_ = 0;
  Unit open_;
  std::deque<Unit> in_flight_;  // by seq, oldest first
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_SSD_WRITE_BUFFER_H_
