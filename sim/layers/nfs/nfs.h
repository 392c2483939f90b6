// Nfs: an NFSv3 mount — the client's RPCs over a shared Ethernet link to a
// server with its own RAM cache, in front of the server's backing stack
// (the node's one child).
//
// A request becomes RPCs of at most rsize (READ) or wsize (WRITE) bytes, or
// one COMMIT for a FLUSH. Each RPC takes a slot (nconnect connections ×
// slots each), crosses the link (its bytes behind everything sent before in
// that direction, then half the RTT), waits for one of the server's nfsd
// threads, is served by the server's page cache and backing stack, and its
// reply crosses back. Writes are UNSTABLE (the server caches them); FUA
// writes are FILE_SYNC; FLUSH is COMMIT. A write into the server's page
// cache holds its nfsd thread through the server's own balance_dirty_pages()
// pause (NfsServerDirty), so a server over its dirty limits answers WRITEs
// at the rate its disks drain the cache.
//
// Exports (exports(5)): `sync` (the default) makes FILE_SYNC and COMMIT
// wait until the data is on stable storage, flushing the server cache and
// the backing stack. `async` answers them at once without making anything
// stable: the node then declares honors_flush = honors_fua = false, and a
// server power cut loses acknowledged, "committed" data.
//
// Close-to-open consistency and the client's page cache are not here: they
// belong to the host's page_cache layer above this node. NFSv3 has no
// discard: trim is not offered; write-zeroes sends zeros over the wire.
// Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_NFS_NFS_H_
#define STORLAB_SIM_LAYERS_NFS_NFS_H_

#include <deque>
#include <memory>

#include "sim/layers/cache/cache_core.h"
#include "sim/layers/nfs/nfs_client.h"
#include "sim/layers/nfs/nfs_link.h"
#include "sim/layers/nfs/nfs_server_dirty.h"
#include "sim/node.h"

namespace storlab {

class Nfs : public Node {
 public:
  struct Config {
    double line_bytes_per_s = 125e6;  // 1000BASE-T: 1 Gb/s on the wire
    uint32_t mtu = 1500;              // Ethernet default
    Nanos rtt = Nanos(200'000);       // a switched LAN: ping ~0.1-0.3 ms
    // With a --seed other than 1, each message's one-way latency is up to
    // this much longer or shorter (Jitter; never overtaking the message
    // before it): assumed, a switched LAN's ping varies by tens of µs.
    Nanos rtt_jitter = Nanos(50'000);
    uint64_t seed = 1;         // not a profile key: the run's --seed
    uint64_t rsize = 1 << 20;  // nfs(5): Linux negotiates up to 1 MiB
    uint64_t wsize = 1 << 20;
    uint32_t nconnect = 1;  // nfs(5): 1..16 TCP connections
    // The RPC slot table of each connection (net/sunrpc/xprt.c): it starts
    // with tcp_slot_table_entries slots (RPC_MIN_SLOT_TABLE = 2), and an RPC
    // that finds none free allocates one more (xprt_dynamic_alloc_slot) up
    // to tcp_max_slot_table_entries (RPC_MAX_SLOT_TABLE_LIMIT = 65536,
    // net/sunrpc/xprtsock.c); a released slot above the minimum is freed
    // (xprt_dynamic_free_slot). `slots` is that maximum.
    uint32_t min_slots = 2;
    uint32_t slots = 65536;
    // The client's write-back rules (its kernel line, congestion):
    // consulted by the host page cache above (NfsClient).
    NfsClientConfig client;
    // RPC framing (derived from RFC 5531 and RFC 1813 with AUTH_SYS and a
    // 32-byte file handle): record mark + call header + credentials + the
    // WRITE/READ/COMMIT arguments ~140 bytes; reply header + wcc_data /
    // post_op_attr + count/verifier ~160 bytes.
    uint32_t call_bytes = 140;
    uint32_t reply_bytes = 160;
    bool async_export = false;    // exports(5): sync is the default
    uint32_t server_threads = 8;  // nfs.conf [nfsd] threads=8 (rpc.nfsd default)
    Nanos server_rpc_time;        // nfsd CPU per RPC (0: folded into the RTT)
    bool server_cache = false;    // the server's page cache (server_cache_size)
    CacheConfig cache;
  };

  Nfs(Engine& engine, const std::string& name, const Config& cfg, Node& backing, bool keeps_data);
  ~Nfs() override;
  static constexpr NodeKind kKind = NodeKind::kNfs;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "nfs"; }
  std::vector<Node*> children() const override { return {&backing_}; }
  void AppendStats(StatList& out) const override;
  // --state (nfs_state.cc): the link's timelines and jitter, and the
  // server's page cache (a CacheCore: its blocks, their data when kept, the
  // LRU order) — the server machine keeps running between runs, as the
  // host's page cache does; a --reboot power-cycles both ends and the
  // server's cache starts empty.
  bool CanSaveState() const override { return true; }
  Status SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;
  // What the server holds in its RAM and has not written to its disks.
  uint64_t volatile_bytes() const override { return cache_ ? cache_->dirty_bytes() : 0; }
  std::vector<const TimeSeries*> Series() const override;

  const NfsLink& link() const { return link_; }
  // The server's page cache, or nullptr.
  const CacheCore* server_cache() const { return cache_.get(); }
  // The nfsd threads' dirty throttle (with a server cache), or nullptr.
  const NfsServerDirty* server_dirty() const { return server_dirty_.get(); }
  const NfsClientConfig& client_config() const { return cfg_.client; }
  uint64_t wsize() const { return cfg_.wsize; }
  uint32_t max_in_flight() const { return cfg_.nconnect * cfg_.slots; }
  // Slots allocated now and the most ever allocated (all connections).
  uint32_t slots_allocated() const { return slots_allocated_; }
  uint32_t slots_high_water() const { return slots_high_water_; }
  // WRITE RPCs sent FILE_SYNC (FUA).
  uint64_t file_sync_writes() const { return file_sync_writes_; }
  uint64_t commits() const { return commits_; }
  Nanos commit_time() const { return commit_time_; }
  // WRITE RPCs sent (write-zeroes go as WRITEs of zeros).
  uint64_t write_rpcs() const {
    return rpcs_[static_cast<int>(Op::kWrite)] + rpcs_[static_cast<int>(Op::kWriteZeroes)];
  }

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;

 private:
  struct Rpc {
    Op op;
    uint32_t flags;
    uint64_t offset, length;
    uint8_t* data;
    Nanos sent;
    Completion done;
  };
  void Enqueue(std::unique_ptr<Rpc> rpc);
  void Send(std::unique_ptr<Rpc> rpc);
  void Arrive(std::unique_ptr<Rpc> rpc);
  void Serve(std::unique_ptr<Rpc> rpc);
  void Served(std::unique_ptr<Rpc> rpc, Status st);
  void Replied(std::unique_ptr<Rpc> rpc, Status st);
  void ServerSubmit(Request r);
  // A WRITE into the server's page cache: the nfsd thread replies after
  // its balance_dirty_pages() pause (NfsServerDirty).
  void ServerWrite(std::unique_ptr<Rpc> rpc, Request q);

  Config cfg_;
  Node& backing_;
  std::unique_ptr<CacheCore> cache_;
  std::unique_ptr<NfsServerDirty> server_dirty_;  // with cache_
  NfsLink link_;
  uint32_t in_flight_ = 0;    // RPCs holding a client slot
  uint32_t slots_allocated_;  // the slot tables' size now
  uint32_t slots_high_water_;
  uint64_t file_sync_writes_ = 0;
  uint32_t busy_threads_ = 0;  // nfsd threads at work
  std::deque<std::unique_ptr<Rpc>> slot_waiters_;
  std::deque<std::unique_ptr<Rpc>> thread_waiters_;
  uint64_t rpcs_[kOpCount] = {};
  uint64_t commits_ = 0;
  Nanos commit_time_;
  uint64_t epoch_ = 0;  // bumped by a power cut
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_NFS_NFS_H_
