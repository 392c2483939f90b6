// MakeNfs: the "nfs" node type's profile keys, read into Nfs::Config (the
// server cache's keys, prefixed "server_cache_", as the cache node reads them).
#include <memory>
#include <string>

#include "sim/layers/cache/cache.h"
#include "sim/layers/link/ethernet_frame.h"
#include "sim/layers/nfs/nfs.h"
#include "sim/profile/factories/cache_factory.h"
#include "sim/profile/factories/factories.h"

namespace storlab {

Result<std::unique_ptr<Node>> MakeNfs(Params& params, BuildContext& ctx) {
  Nfs::Config c;
  Node& backing = *ctx.children[0];
  params.Rate({"link_rate", "Ethernet line rate, each direction"}, &c.line_bytes_per_s);
  params.Int({"mtu", "Ethernet MTU, bytes"}, &c.mtu, EthernetFrame::kMinMtu,
             EthernetFrame::kMaxMtu);
  params.Duration({"rtt", "network round-trip time"}, &c.rtt);
  params.Duration(
      {"rtt_jitter",
       "with --seed other than 1: each message's latency up to this much longer or shorter"},
      &c.rtt_jitter);
  c.seed = ctx.seed;
  params.Size({"rsize", "largest READ RPC (nfs(5) rsize)"}, &c.rsize, 4096, uint64_t{1} << 20);
  params.Size({"wsize", "largest WRITE RPC (nfs(5) wsize)"}, &c.wsize, 4096, uint64_t{1} << 20);
  params.Int({"nconnect", "TCP connections to the server (nfs(5) nconnect)"}, &c.nconnect, 1, 16);
  params.Int({"slots",
              "RPCs in flight per connection at most: the slot table's largest size "
              "(sunrpc.tcp_max_slot_table_entries)"},
             &c.slots, 1, 65536);
  params.Int(
      {"min_slots",
       "the slot table's size when idle (sunrpc.tcp_slot_table_entries); it grows on demand"},
      &c.min_slots, 1, 65536);
  std::string kernel = "6.2";
  params.String({"client_kernel",
                 "the client's Linux version (MAJOR.MINOR): its NFS write-back rules "
                 "(docs/sim.md, \"The NFS client\")"},
                &kernel);
  uint64_t congestion_kb = 0;
  params.Int({"congestion_kb",
              "the client's nfs_congestion_kb (0: the kernel's default from the host's RAM)"},
             &congestion_kb, 0, int64_t{1} << 30);
  c.client.congestion_bytes = congestion_kb * 1024;
  params.Int({"call_bytes", "RPC call framing and arguments, bytes per call"}, &c.call_bytes, 0,
             65536);
  params.Int({"reply_bytes", "RPC reply framing and results, bytes per reply"}, &c.reply_bytes, 0,
             65536);
  std::string exp = "sync";
  params.Enum(
      {"export", "sync: the server stores a WRITE before replying; async: it replies first"}, &exp,
      {"sync", "async"});
  c.async_export = exp == "async";
  params.Int({"server_threads", "nfsd threads serving RPCs at once"}, &c.server_threads, 1, 1024);
  params.Duration({"server_rpc_time", "nfsd CPU time per RPC (0: folded into the RTT)"},
                  &c.server_rpc_time);
  c.cache = DefaultCacheConfig(/*ram=*/true);
  c.server_cache = params.Has("server_cache_size");
  if (c.server_cache) {
    ReadCacheParams(params, "server_cache_", &c.cache);
    RETURN_IF_ERROR(ResolveCacheConfig(params, "server_cache_", nullptr, backing, &c.cache));
  }
  if (auto k = NfsClient::ParseKernel(kernel); k.ok()) {
    c.client.kernel = *k;
  } else {
    params.Fail("client_kernel", k.status().message());
  }
  RETURN_IF_ERROR(params.Finish());
  const uint32_t lb = backing.geometry().logical_block;
  if (c.rsize % lb != 0 || c.wsize % lb != 0) {
    params.Fail(c.rsize % lb ? "rsize" : "wsize", "must be a multiple of the backing stack's " +
                                                      std::to_string(lb) + "-byte logical block");
    return params.Finish();
  }
  return std::unique_ptr<Node>(new Nfs(ctx.engine, ctx.node_name, c, backing, ctx.keeps_data()));
}

}  // namespace storlab
