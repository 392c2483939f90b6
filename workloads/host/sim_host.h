// SimHost: the simulated machine a virtual-time workload runs on — a stack
// (catalog name or TOML file) on one engine, the host it describes
// ([host] table, overridable), a file system laid out over the stack
// (sim/fs/extent_fs.h), the host's cores, and the two ways file I/O reaches
// the stack: buffered through the host page cache (sim/layers/page_cache/page_cache.h,
// built from the HostSpec and put on top of the stack's root), or direct
// (O_DIRECT) past it.
//
// Runs are timing-only (DataMode kNone): no data is kept, unless the options
// ask for it (keep_data: every store in RAM, the page cache's pages too) and
// for the durability oracle (sim/oracle.h) on top of everything the
// workload sends: over the page cache, or over the device when O_DIRECT
// bypasses the cache (power cuts: workloads/power_cuts.h).
// Not thread-safe.
#ifndef STORLAB_WORKLOADS_HOST_SIM_HOST_H_
#define STORLAB_WORKLOADS_HOST_SIM_HOST_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine.h"
#include "sim/fs/extent_fs.h"
#include "sim/host_spec.h"
#include "sim/layers/page_cache/page_cache.h"
#include "sim/node.h"
#include "sim/oracle.h"
#include "sim/profile/loader.h"
#include "sim/request.h"
#include "sim/stack.h"
#include "sim/status.h"
#include "workloads/host/cpu_pool.h"
#include "workloads/host/fs_prefill.h"

namespace storlab {

struct HostOptions {
  std::string stack = "ram";  // catalog name or stack file
  std::string stack_text;     // if set: the stack file's text (`stack` labels it)
  uint64_t seed = 1;
  std::optional<uint64_t> mem_bytes;  // --host-mem
  std::optional<uint32_t> cores;      // --host-cores
  bool keep_data = false;             // stores in RAM; FileIo carries data
  bool oracle = false;                // an Oracle on top (implies keep_data)
  // --prefill PERCENT (over the stack file's [fs] prefill): the file system
  // starts this full of aged files (workloads/host/fs_prefill.h).
  std::optional<double> prefill;
};

class SimHost {
 public:
  static Result<std::unique_ptr<SimHost>> Create(const HostOptions& options);
  ~SimHost();
  SimHost(const SimHost&) = delete;
  SimHost& operator=(const SimHost&) = delete;

  Engine& engine() { return engine_; }
  const Engine& engine() const { return engine_; }
  Stack& stack() { return *stack_; }
  const Stack& stack() const { return *stack_; }
  const HostSpec& host() const { return host_; }
  ExtentFs& fs() { return *fs_; }
  const ExtentFs& fs() const { return *fs_; }
  // The aged files the file system started with (--prefill over the stack
  // file's [fs] prefill); percent 0: none.
  double prefill_percent() const { return prefill_percent_; }
  const PrefillSummary& prefill() const { return prefill_; }
  CpuPool& cpu() { return cpu_; }
  const HostOptions& options() const { return options_; }
  // The stack as resolved from its file (every parameter and its source):
  // what a saved state is checked against (workloads/host/host_state.h).
  const std::string& resolved() const { return resolved_; }
  // The stack file's [stack] faults ("TIME: COMMAND" lines, for storlab sim).
  const std::vector<StackFault>& stack_faults() const { return stack_faults_; }

  // The device under the host's page cache: the stack as built from its
  // file (what fio's disk_util shows).
  Node& device() { return *root_; }
  const Node& device() const { return *root_; }
  // The host page cache put on top of the stack (or the stack's own root
  // when it is a page_cache node); nullptr when the stack's root is a file
  // system that caches for itself (a ZFS dataset: the ARC and its txgs
  // take buffered writes, Linux's page cache is not used).
  PageCache* page_cache() { return page_cache_; }
  const PageCache* page_cache() const { return page_cache_; }
  // The oracle on top of everything, when the options asked for one (from
  // set_direct_bypasses_cache() on).
  Oracle* oracle() { return oracle_; }
  bool keeps_data() const { return options_.keep_data || options_.oracle; }
  // Writes should carry their bytes: the run keeps data, or a node of the
  // stack's timing depends on them (Capabilities::uses_write_data: ZFS
  // compression). Reads carry a buffer only when keeps_data().
  bool writes_carry_data() const { return writes_carry_data_; }
  // Where buffered I/O goes: the page cache, or the caching root.
  Node& buffered_node() { return *buffered_; }
  // Direct (O_DIRECT) I/O goes to the page cache with kDirect, which keeps
  // it coherent with buffered I/O on the same files, unless the workload
  // never mixes them: then straight to the device (less work per I/O).
  // Call once, before the first I/O (it places the oracle).
  void set_direct_bypasses_cache(bool bypass);

  // File I/O: [offset, offset+length) of file `file` (an ExtentFs id).
  // Writes allocate blocks (kNoSpace when the file system is full); reads
  // of holes cost nothing and complete at once. `done` runs exactly once,
  // from an engine event.
  // `flags` adds request flags (kFua for an O_SYNC write). `data`: the
  // write's bytes or the read's buffer, `length` of them (nullptr: timing
  // only; give it when keeps_data()).
  void FileIo(uint32_t file, Op op, uint64_t offset, uint64_t length, bool direct, Completion done,
              uint32_t flags = 0, uint8_t* data = nullptr);
  // fsync(file): writes the file's dirty pages back and flushes the device.
  // (With direct I/O bypassing the cache, only the device flush.)
  void Fsync(uint32_t file, bool direct, Completion done);
  // sync_file_range(file, offset, length, flags) (PageCache::SyncFileRange()
  // over each extent of the range); done at once with no page cache.
  void SyncFileRange(uint32_t file, uint64_t offset, uint64_t length, uint32_t flags,
                     Completion done);
  // What a read or write with RWF_NOWAIT (fio's nowait) would meet, by the
  // kernel's rules (sim_host_nowait.cc): it proceeds; the file system sets
  // no FMODE_NOWAIT (EOPNOTSUPP); a buffered write, which the local file
  // systems and block devices refuse (EOPNOTSUPP); or it would block
  // (EAGAIN). Changes nothing.
  enum class Nowait : uint8_t { kProceeds, kUnsupported, kBufferedWrite, kWouldBlock };
  Nowait NowaitCheck(uint32_t file, Op op, uint64_t offset, uint64_t length, bool direct);

 private:
  explicit SimHost(const HostOptions& options);
  void Split(uint32_t file, Op op, uint64_t offset, uint64_t length, uint32_t flags, uint8_t* data,
             Node& target, Completion done);

  HostOptions options_;
  Engine engine_;
  std::unique_ptr<Stack> stack_;
  std::vector<StackFault> stack_faults_;
  std::string resolved_;
  HostSpec host_;
  std::unique_ptr<ExtentFs> fs_;
  double prefill_percent_ = 0;
  PrefillSummary prefill_;
  CpuPool cpu_;
  Node* root_ = nullptr;
  PageCache* page_cache_ = nullptr;
  Oracle* oracle_ = nullptr;
  Node* buffered_ = nullptr;
  Node* direct_ = nullptr;  // where bypassing O_DIRECT goes: the device, or the oracle
  bool direct_bypass_ = false;
  bool writes_carry_data_ = false;
  std::vector<ExtentFs::Extent> scratch_;
};

}  // namespace storlab

#endif  // STORLAB_WORKLOADS_HOST_SIM_HOST_H_
