// ArrayOp: the common frame of one client request on a RAID array.
//
// A request is worked through in windows of at most kWindow bytes, each
// aligned to whole stripes, so a huge request (a whole-device write-zeroes)
// needs bounded memory, like md handling a large bio stripe by stripe.
// Subclasses implement Window(); the frame handles the failed array, the
// range lock, members that returned errors (excluded for the rest of the
// request), md-style correction of read errors once the data is known, and
// completing the request exactly once, from an engine event.
// Not thread-safe; lives while callbacks hold it.
#ifndef STORLAB_SIM_LAYERS_RAID_ARRAY_OP_H_
#define STORLAB_SIM_LAYERS_RAID_ARRAY_OP_H_

#include <cstdint>
#include <memory>
#include <tuple>
#include <vector>

#include "sim/layers/raid/raid_array.h"
#include "sim/request.h"

namespace storlab {

class ArrayOp : public std::enable_shared_from_this<ArrayOp> {
 public:
  static constexpr uint64_t kWindow = uint64_t{16} << 20;

  ArrayOp(RaidArray& a, Request req);
  virtual ~ArrayOp() = default;
  ArrayOp(const ArrayOp&) = delete;
  ArrayOp& operator=(const ArrayOp&) = delete;

  // Starts the request. REQUIRES: held by a shared_ptr.
  void Start();

 protected:
  // Processes [off, off+len) and then calls WindowDone().
  virtual void Window(uint64_t off, uint64_t len) = 0;
  // The window's alignment (a stripe, a chunk, a block).
  virtual uint64_t WindowAlign() const = 0;
  // Ends the current window: next window, or completion with `st`.
  void WindowDone(Status st);
  // Called first by WindowDone (a subclass returns what the window held).
  virtual void OnWindowEnd() {}
  // Runs the current window again (after a member failed mid-way).
  void RetryWindow();

  // Takes the array's range lock on [lo, hi), then runs `then` (at once when
  // the window already holds it: a retry).
  void Lock(uint64_t lo, uint64_t hi, Callback<void()> then);
  void Unlock();

  // Whether member m may be read for this request: usable and not excluded.
  bool Readable(int m, uint64_t off, uint64_t len) const;
  // Excludes members in `failed_mask` for the rest of this request and
  // remembers the failed read extents of `set` for correction.
  void NoteReadErrors(uint64_t failed_mask, const ExtentSet& set);
  // Marks the members in `failed_mask` failed after write errors.
  void NoteWriteErrors(uint64_t failed_mask);

  // Where the client's bytes for array offset `off` are (zeros for write-
  // zeroes), or nullptr in timing-only runs.
  const uint8_t* Source(uint64_t off) const;
  uint8_t* Dest(uint64_t off) const {
    return req_.data ? req_.data + (off - req_.offset) : nullptr;
  }
  // Whether this request moves real bytes.
  bool with_data() const { return with_data_; }
  uint32_t write_flags() const { return req_.flags & kFua; }

  std::shared_ptr<ArrayOp> self() { return shared_from_this(); }

  RaidArray& a_;
  Request req_;
  uint64_t excluded_ = 0;

 private:
  void NextWindow();
  void Finish(Status st);

  uint64_t pos_ = 0;
  uint64_t win_len_ = 0;
  uint64_t ticket_ = 0;
  uint64_t epoch_;
  bool starting_ = false;  // inside Start(): completion must be deferred
  bool with_data_;
  std::vector<uint8_t> zeros_;
  std::vector<std::tuple<int, uint64_t, uint64_t>> read_errors_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_RAID_ARRAY_OP_H_
