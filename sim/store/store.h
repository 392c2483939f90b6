// Store: where a node keeps durable data (a disk's platters, an SSD's flash).
//
// Byte-addressed; ranges never written read as zeros. Three kinds: RamStore
// (sparse, in memory), FileStore (a sparse file on the host) and NullStore
// (keeps nothing: timing-only runs of terabyte devices). Volatile data lives
// in an Overlay above a store, never in the store itself.
//
// Threading: not thread-safe; the engine thread owns a store.
#ifndef STORLAB_SIM_STORE_STORE_H_
#define STORLAB_SIM_STORE_STORE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/status.h"

namespace storlab {

class Env;         // sim/env.h
struct StatValue;  // sim/node_stats.h
class StateReader;
class StateWriter;

class Store {
 public:
  virtual ~Store() = default;

  // False for NullStore: reads return zeros and writes are dropped.
  virtual bool keeps_data() const = 0;
  // Copies [off, off+len) into `out`. REQUIRES: out != nullptr.
  virtual Status Read(uint64_t off, uint64_t len, uint8_t* out) const = 0;
  // Stores `in` at [off, off+len). REQUIRES: in != nullptr.
  virtual Status Write(uint64_t off, uint64_t len, const uint8_t* in) = 0;
  // Makes [off, off+len) read as zeros, releasing space where it can.
  virtual Status Zero(uint64_t off, uint64_t len) = 0;
  // Bytes of host memory or disk actually held.
  virtual uint64_t allocated_bytes() const = 0;
  // What the store costs the host, each figure with its unit (the real-time
  // service's stats): allocated_bytes, and what a kind adds (RamStore: its
  // pages' chunks).
  virtual void AppendStats(std::vector<StatValue>& out) const;

  // storlab sim --state (sim/stack_state.h): the contents, appended as
  // records, and read back into an empty store of the same kind. RamStore
  // keeps its pages; NullStore has nothing to keep; FileStore refuses (its
  // file is already where its data lasts).
  virtual Status SaveState(StateWriter& w) const = 0;
  virtual Status RestoreState(StateReader& r) = 0;
};

// How a stack keeps its data: not at all, in RAM, or in sparse files in a
// directory (one file per device).
struct DataMode {
  enum class Kind { kNone, kRam, kFile };
  Kind kind = Kind::kRam;
  std::string directory;  // kFile only
  Env* env = nullptr;     // kFile: the host's files (null: Env::Default())
  // kRam: pages from 2 MiB chunks, as huge pages where the kernel has them,
  // while the host gives those cheaper than 64-page ones
  // (sim/store/page_arena.h, cheaper mode). For the real-time service,
  // which never forks a power-cut check; a forked copy would split them
  // again.
  bool huge_pages = false;
  // kRam: whole pages written with non-temporal stores
  // (sim/store/stream_copy.h). For the real-time service, whose writes land
  // on pages the cache no longer holds.
  bool stream_writes = false;
  // kRam with huge_pages: once this is true, a thread makes a filling
  // store's next chunks ahead (sim/store/chunk_prefetcher.h). The real-time
  // service sets it in Start(), after nbdkit or the mount has forked into
  // the background: a thread started before a fork would not exist in the
  // child (a restored state fills the stores before it). Owned by the
  // caller; outlives the stores.
  const std::atomic<bool>* prefetch = nullptr;
};

// Creates the store for device `name` of `capacity` bytes under `mode`.
Result<std::unique_ptr<Store>> MakeStore(const DataMode& mode, const std::string& name,
                                         uint64_t capacity);

}  // namespace storlab

#endif  // STORLAB_SIM_STORE_STORE_H_
