// Oracle: the durability oracle. Sits on top of a stack and proves that it
// loses nothing it promised to keep.
//
// For every logical block it records the XXH3-64 hash of each version
// written through it: in flight, acknowledged, and made durable by a FLUSH
// (which covers writes acknowledged before the flush was submitted — of its
// file, when the FLUSH names one: fsync(2) through a host page cache, whose
// Request.file_id the writes carry too; file 0 is every file) or by FUA. After a power cut,
// Verify() reads every block it knows back through the stack and checks that the content is an
// acceptable version:
//   - a durable version, or any version written after it (acknowledged or
//     still in flight at the cut: those may or may not have landed);
//   - never a version that a durable one superseded, and never anything else.
// Overlapping writes that were in flight together may land in either order,
// so a version is superseded only by one submitted after it completed.
// Below a stack without a volatile cache (Capabilities::volatile_cache
// false: a RAM disk, drives with their write cache off) a write is durable
// when it completes, as if it were FUA: the stack promises as much, the
// oracle holds it to that, and a block rewritten by a client that never
// flushes keeps one version, not one per write.
// Trim keeps the previous content acceptable next to zeros (NBD semantics).
// Reads are checked online too: a read must return a version no older than
// the newest write acknowledged before the read was submitted (a block that
// a write made durable while the read was in flight is not checked: the
// versions the read could return may be gone).
// Each violation names the block, the found hash and the acceptable ones;
// the report also counts the acknowledged-but-volatile writes that were lost,
// which is allowed — and the lesson.
//
// A multi-threaded owner (the service) may check reads off the engine
// thread: set_defer_read_checks(true), then for each read read_mark() at
// its submission, CaptureRead() at its completion (both on the engine
// thread: what each block may hold then, without its data), and
// CheckCaptured() with the data on any thread, before the read is
// answered. Hashing a 1 MiB read's 2,048 blocks on the engine thread held
// every other request of the export back.
//
// Requires a stack that keeps data. Not thread-safe (engine thread), but
// for CheckCaptured() and read_violations().
#ifndef STORLAB_SIM_ORACLE_H_
#define STORLAB_SIM_ORACLE_H_

#include <array>
#include <atomic>
#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "sim/key_map.h"
#include "sim/node.h"

namespace storlab {

// A block's hash as the oracle's reports print it: 16 hex digits.
std::string OracleHashHex(uint64_t hash);

struct OracleViolation {
  uint64_t offset;                   // byte offset of the block
  uint64_t found;                    // hash of what the device returned
  std::vector<uint64_t> acceptable;  // hashes it could have returned
  std::string what;                  // e.g. "a durable write was lost"
};

struct OracleReport {
  uint64_t blocks_checked = 0;
  uint64_t blocks_newest = 0;  // hold the newest acknowledged version
  uint64_t blocks_older = 0;   // hold an older acceptable version: acknowledged
                               // writes that were never made durable were lost
  uint64_t read_errors = 0;
  std::vector<OracleViolation> violations;
  bool ok() const { return violations.empty() && read_errors == 0; }
  std::string Summary() const;  // a few lines, then one line per violation (first 20)
};

// What each block of one read may hold (Oracle::CaptureRead), to be checked
// against the read's data later (Oracle::CheckCaptured). Reused: a capture
// keeps its buffers.
class OracleReadCheck {
 public:
  bool empty() const { return blocks_.empty(); }

 private:
  friend class Oracle;
  enum class Kind : uint8_t {
    kAny,    // `count` blocks of any content (unknown before a durable write covered it)
    kZeros,  // `count` blocks never written through the oracle, on a fresh device
    kOne,    // one block of exactly `hash` (one settled version)
    kList,   // one block: entries_[first, first + count), those with `accept`
  };
  // One block, or a run of blocks that are checked alike (kAny, kZeros).
  struct Block {
    uint64_t hash;
    uint32_t first;
    uint32_t count;
    Kind kind;
    // A write acknowledged after the read's submission overlapped it and
    // was made durable: an unacceptable content is not a violation.
    bool overlapped;
  };
  struct Entry {
    uint64_t hash;
    bool accept;  // else only named in a violation's report
  };
  uint64_t offset_ = 0;
  boost::container::small_vector<Block, 8> blocks_;
  std::vector<Entry> entries_;
};

class Oracle : public NodeWrapper {
 public:
  // `fresh`: the device starts all zeros (a new stack). Otherwise a block's
  // content before its first write through the oracle is unknown, and any
  // value is accepted until a durable write covers it.
  // `name`: the oracle's own node name (one per export: "oracle/disk.0").
  Oracle(Engine& engine, Node& child, bool fresh = true, std::string name = "oracle");
  static constexpr NodeKind kKind = NodeKind::kOracle;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "oracle"; }

  struct VerifyOptions {
    // The found contents become the new durable baseline, so cuts can
    // repeat; false: the oracle's records are only read (a forked copy that
    // verifies one cut and exits then copies none of their pages).
    bool rebaseline = true;
    // On every read: kDirect reads past a page cache (empty after a cut)
    // into the check's buffers, which a forked copy, paying a page fault for
    // each page it writes, prefers to filling the cache.
    uint32_t read_flags = 0;
    // Reads cover runs of consecutive blocks up to this long, this many at
    // a time, each into a buffer of its own that the next read reuses. A
    // forked copy prefers few short reads: every layer's buffer pages are
    // page faults there, and its virtual time is nobody's.
    uint64_t max_read_bytes = uint64_t{1} << 20;
    int queue_depth = 16;
  };
  // Reads back every block the oracle knows and checks it. Call after
  // Stack::PowerCut(); `done` runs from an engine event.
  void Verify(Callback<void(OracleReport)> done, VerifyOptions options);
  void Verify(Callback<void(OracleReport)> done) { Verify(std::move(done), VerifyOptions()); }
  // Verify() driven to completion in virtual time.
  OracleReport VerifyNow(VerifyOptions options);
  OracleReport VerifyNow() { return VerifyNow(VerifyOptions()); }

  uint64_t blocks_tracked() const { return tracked_; }
  // Versions held over all blocks (walks them all: for tests and tools).
  uint64_t VersionsHeld() const;
  // Reads that returned an unacceptable (e.g. stale) version, as they
  // happened (a copy: thread-safe).
  std::vector<OracleViolation> read_violations() const;
  size_t read_violation_count() const;

  // Deferred read checks (above): reads submitted through the oracle are
  // then not checked by it.
  void set_defer_read_checks(bool on) { defer_read_checks_ = on; }
  // At a read's submission: the writes acknowledged so far.
  uint64_t read_mark() const { return acks_; }
  // At its successful completion: what each block of [offset, offset +
  // length) may hold, given the writes acknowledged by `mark`, into `out`.
  void CaptureRead(uint64_t offset, uint64_t length, uint64_t mark, OracleReadCheck& out);
  // Any thread: checks `data` (the read's, `length` bytes) against `check`
  // and records what is not acceptable.
  void CheckCaptured(const OracleReadCheck& check, const uint8_t* data);
  void AppendStats(StatList& out) const override;

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;

 private:
  static constexpr uint64_t kInFlight = UINT64_MAX;
  static constexpr uint64_t kUnknown = 0;  // hash value meaning "anything"
  struct Version {
    uint64_t seq;  // write number, unique
    uint64_t hash;
    uint64_t submit_mark;  // acks completed when it was submitted
    uint64_t ack_no;       // its ack number, or kInFlight
    bool trim;             // zeros, or the previous content
    bool unknown;          // initial content of a non-fresh device
    uint32_t file = 0;     // Request.file_id of the write
  };
  // A block's versions: the baseline and one write fit inline (a block's
  // usual count between flushes), more go to the heap.
  using Versions = boost::container::small_vector<Version, 2>;
  void RecordSubmit(const Request& req, uint64_t seq);
  // `durable`: the write is durable now (FUA, or no volatile cache below).
  void RecordAck(const Request& req, uint64_t seq, bool durable);
  void OnFlushDone(uint64_t mark, uint32_t file);
  // Whether `found` is an acceptable content given `versions`, when the
  // writes acknowledged by `mark` (ack number) supersede what they replaced;
  // mark 0: nothing is superseded beyond what flushes and FUA already pruned.
  bool Acceptable(const Versions& versions, uint64_t found, uint64_t mark) const;
  // The newest submit mark among the versions acknowledged by `mark` that
  // can supersede others (-1: none), and whether versions[i] survives it.
  static int64_t SupersedingMark(const Versions& versions, uint64_t mark);
  static bool Survives(const Versions& versions, size_t i, int64_t superseding);
  void AddReadViolation(OracleViolation v);
  // Starts fetching the groups of blocks [first, first + n) (CaptureRead).
  void PrefetchGroups(uint64_t first, uint64_t n) const;
  uint64_t HashBlock(const uint8_t* p) const;

  bool fresh_;
  uint32_t block_;
  bool durable_on_ack_;  // the child has no volatile cache
  uint64_t zero_hash_;
  uint64_t next_seq_ = 1;
  uint64_t acks_ = 0;
  uint64_t flushes_ = 0;
  uint64_t durable_writes_ = 0;
  uint64_t reads_checked_ = 0;
  // Blocks read while a write to them completed (CheckCaptured: any thread).
  std::atomic<uint64_t> reads_overlapped_{0};
  bool defer_read_checks_ = false;
  OracleReadCheck scratch_;  // the check of a read the oracle checks itself
  // acks_ when a durable write or a FLUSH last pruned a version: a read
  // submitted at or after it lost nothing it could return.
  uint64_t last_prune_ack_ = 0;
  mutable std::mutex violations_mu_;
  std::vector<OracleViolation> read_violations_;  // stale or wrong reads seen online (guarded)
  // Blocks by eight consecutive ones, so that a 4 KiB write of 512-byte
  // blocks costs one index lookup, not eight.
  static constexpr uint64_t kGroup = 8;
  // A block left with one version, durable (or the baseline): "settled".
  // Most blocks are, so it is 16 bytes inline in its group; a block with
  // versions the next FLUSH may settle keeps them in pending_.
  struct Settled {
    uint64_t hash = 0;
    uint64_t bits = 0;  // ack_no << 3 | kWritten | kTrim | kUnknown
  };
  static constexpr uint64_t kTrimBit = 1, kUnknownBit = 2, kWrittenBit = 4;
  static constexpr uint64_t kSettledSeq = UINT64_MAX;  // the seq of an expanded written one
  static Settled Compact(const Version& v);
  static Version Expand(const Settled& s);
  struct Group {
    std::array<Settled, kGroup> settled;
    uint8_t present = 0;  // bit i: block i is tracked
    uint8_t pending = 0;  // bit i: block i's versions are in pending_
  };
  // The versions of a group's pending blocks (only the bits its Group's
  // `pending` has); an entry lives while that mask is not 0.
  struct Pending {
    std::array<Versions, kGroup> versions;
    uint64_t visit = 0;  // the pass over unsettled_list_ that last kept it
  };
  Settled Baseline() const;
  // The pending entry of group `gk` (g: its Group, or nullptr), if any.
  Pending* PendingOf(const Group* g, uint64_t gk) const {
    return g != nullptr && g->pending != 0 ? pending_.Find(gk) : nullptr;
  }
  // Whether block `bit` of `g` (p: its group's pending entry) may hold
  // `found`, given the writes acknowledged by `mark` (Acceptable), and the
  // hashes it may hold (for a violation's report).
  bool Accepts(const Group& g, const Pending* p, unsigned bit, uint64_t found, uint64_t mark) const;
  static std::vector<uint64_t> AcceptableHashes(const Group& g, const Pending* p, unsigned bit);
  // Whether block `bit` of `g` holds a version acknowledged after ack
  // number `mark` (p: its pending entry, if any).
  static bool WrittenSince(const Group& g, const Pending* p, unsigned bit, uint64_t mark);
  // Block `bit` of group `gk` keeps only versions[0] of its list.
  void Settle(Group& g, uint64_t gk, unsigned bit, Pending& p);
  // Blocks are never forgotten (stable entries).
  KeyMap<Group> blocks_;
  KeyMap<Pending> pending_;
  uint64_t tracked_ = 0;
  // Every group with pending blocks, and some that settled since (dropped
  // lazily, by the next FLUSH, or when the list grows past twice the
  // groups pending): a plain list where a hash set cost two lookups and a
  // node allocation per write. A group that settled and became pending
  // again may be listed twice: a pass keeps the first (Pending::visit).
  std::vector<uint64_t> unsettled_list_;
  uint64_t unsettled_ = 0;  // blocks pending
  uint64_t visit_ = 0;
  static constexpr size_t kListSlack = 4096;
  void DropSettledFromList();
};

}  // namespace storlab

#endif  // STORLAB_SIM_ORACLE_H_
