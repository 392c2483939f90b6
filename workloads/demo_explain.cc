#include "workloads/demo_explain.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "sim/devices/hdd.h"
#include "sim/layers/link/link.h"
#include "sim/layers/nfs/nfs.h"
#include "sim/layers/zfs/zfs.h"
#include "sim/stat_table.h"
#include "workloads/text_format.h"

namespace storlab::demo {
namespace {

std::string Gb(double bytes) { return Fmt("%.1f GB", bytes / 1e9); }
std::string Mbps(double bps) { return Fmt("%.1f MB/s", bps / 1e6); }
std::string Secs(double ns) { return Fmt("%.1f s", ns / 1e9); }

struct RunFigures {
  double app_bytes = 0;     // what fio counted (all jobs)
  double runtime_s = 0;     // the slowest job's, end_fsync included
  double end_fsync_ns = 0;  // the longest end_fsync
};

RunFigures Figures(const fio::FioRun& run) {
  RunFigures f;
  for (const auto& r : run.runners()) {
    const auto& ts = r->stat();
    f.app_bytes += static_cast<double>(ts.dir[0].io_bytes + ts.dir[1].io_bytes);
    for (int d = 0; d < 2; ++d) {
      f.runtime_s = std::max(f.runtime_s, static_cast<double>(ts.dir[d].runtime_ms) / 1000.0);
    }
    f.end_fsync_ns = std::max(f.end_fsync_ns, static_cast<double>(r->extras().end_fsync.count()));
  }
  return f;
}

}  // namespace

Limit StackLimit(const fio::FioRun& run) {
  const SimHost& host = run.host();
  Limit l;
  for (const auto& n : host.stack().nodes()) {
    double rate = 0;
    if (const Link* link = NodeAs<Link>(n.get())) rate = link->payload_rate();
    if (const Nfs* nfs = NodeAs<Nfs>(n.get())) rate = nfs->link().payload_bytes_per_s();
    if (rate > 0 && (l.mbps == 0 || rate / 1e6 < l.mbps)) {
      l.mbps = rate / 1e6;
      l.what = "link '" + n->name() + "' (" + Mbps(rate) + ")";
    }
  }
  if (l.mbps == 0) {
    RunFigures f = Figures(run);
    double dev = static_cast<double>(host.device().stats().op(Op::kWrite).bytes);
    l.mbps = f.runtime_s > 0 ? dev / f.runtime_s / 1e6 : 0;
    l.what = "writes that reached '" + host.device().name() + "' (" + Fmt("%.1f MB/s", l.mbps) +
             " over the run)";
  }
  return l;
}

std::string ExplainRun(const fio::FioRun& run, double simulated_mbps, const Limit& limit) {
  const SimHost& host = run.host();
  RunFigures f = Figures(run);
  std::string s = "fio counted " + Gb(f.app_bytes) + " written in " + Fmt("%.1f s", f.runtime_s) +
                  " (" + Fmt("%.0f MB/s", simulated_mbps) + "), " +
                  Fmt("%.1f×", limit.mbps > 0 ? simulated_mbps / limit.mbps : 0) + " the " +
                  limit.what + ".";
  // What crossed the links and reached the device.
  for (const auto& n : host.stack().nodes()) {
    const Link* link = NodeAs<Link>(n.get());
    if (link == nullptr) continue;
    s += " " + Gb(StatNumber(link->bytes_down())) + " crossed link '" + n->name() + "'";
    if (link->busy_down() > Nanos(0)) s += ", busy " + Secs(StatNumber(link->busy_down()));
    s += ".";
  }
  // An NFS mount: what crossed its network link, and its COMMITs.
  for (const auto& n : host.stack().nodes()) {
    const Nfs* nfs = NodeAs<Nfs>(n.get());
    if (nfs == nullptr) continue;
    s += " " + Gb(StatNumber(nfs->link().bytes(NfsLink::kToServer))) +
         " crossed the network to the NFS server '" + n->name() + "' (" +
         Fmt("%.0f", StatNumber(nfs->write_rpcs())) + " WRITE RPCs, link busy " +
         Secs(StatNumber(nfs->link().busy(NfsLink::kToServer))) + "); " +
         Fmt("%.0f", StatNumber(nfs->commits())) + " COMMITs took " +
         Secs(StatNumber(nfs->commit_time())) + " in all.";
  }
  // What reached the disks at the bottom.
  double disk_bytes = 0;
  int disks = 0;
  for (const auto& n : host.stack().nodes()) {
    if (NodeAs<Hdd>(n.get()) == nullptr) continue;
    disk_bytes += static_cast<double>(n->stats().op(Op::kWrite).bytes);
    ++disks;
  }
  if (disks > 0) {
    s += " The " + std::to_string(disks) + " disks took " + Gb(disk_bytes) +
         " of writes (parity included).";
  }
  const Node& dev = host.device();
  const uint64_t flushes = dev.stats().op(Op::kFlush).ops;
  s += " " + Gb(static_cast<double>(dev.stats().op(Op::kWrite).bytes)) + " reached '" + dev.name() +
       "' (" + std::to_string(flushes) + (flushes == 1 ? " flush)." : " flushes).");
  // The host page cache.
  if (const PageCache* pc = host.page_cache()) {
    const auto& c = pc->counters();
    if (c.absorbed_bytes) {
      s += " The host page cache absorbed " + Gb(static_cast<double>(c.absorbed_bytes)) +
           " at memory speed: " + Gb(static_cast<double>(c.rewritten_dirty_bytes)) +
           " rewrote pages that were still dirty (never sent), " +
           Gb(static_cast<double>(c.written_back_bytes)) + " were written back";
      if (c.fsync_written_bytes) {
        s += ", " + Gb(static_cast<double>(c.fsync_written_bytes)) + " of them for fsync";
      }
      s += ".";
      if (c.throttled_ns) {
        s += " Writers were held back by the dirty limits for " +
             Secs(static_cast<double>(c.throttled_ns)) + " in total.";
      } else {
        s += " The dirty limits never throttled the writers.";
      }
    }
  }
  // A file system that caches for itself (ZFS).
  for (const auto& n : host.stack().nodes()) {
    const ZfsPool* zfs = NodeAs<ZfsPool>(n.get());
    if (zfs == nullptr) continue;
    const ZfsPool::Counters& c = zfs->counters();
    s += " ZFS pool '" + n->name() + "' took " + Gb(StatNumber(c.absorbed_bytes)) +
         " into its transaction groups and wrote " + Gb(StatNumber(c.physical_bytes)) + " in " +
         Fmt("%.0f", StatNumber(c.txgs)) + " txgs";
    if (c.rmw_reads > 0)
      s += "; " + Fmt("%.0f", StatNumber(c.rmw_reads)) + " partial records were read first";
    if (c.compress_cpu_ns > 0)
      s += "; compression took " + Secs(StatNumber(c.compress_cpu_ns)) + " of CPU";
    if (c.throttle_ns > 0)
      s += "; its write throttle held writers for " + Secs(StatNumber(c.throttle_ns));
    s += ".";
  }
  if (f.end_fsync_ns > 0) {
    s += " end_fsync ran for " + Secs(f.end_fsync_ns) + " inside fio's runtime.";
  }
  // Layers that acknowledge a flush without making data durable.
  for (const auto& n : host.stack().nodes()) {
    bool lies = !n->caps().honors_flush;
    for (Node* c : n->children()) lies = lies && c->caps().honors_flush;
    if (lies) {
      s += " Flushes (fsync, COMMIT) stopped at '" + n->name() +
           "', which acknowledges them before the data is on stable storage (an async "
           "server): what fio timed as durable was not.";
    }
  }
  return s;
}

std::string ExplainIfInflated(const fio::FioRun& run) {
  double mbps = 0;
  for (const auto& g : run.Groups(run.Reports())) {
    mbps = std::max(mbps, static_cast<double>(g.agg[fio::kRead] + g.agg[fio::kWrite]) / 1e6);
  }
  const Limit limit = StackLimit(run);
  if (limit.mbps <= 0 || mbps <= 2 * limit.mbps) return "";
  return ExplainRun(run, mbps, limit);
}

}  // namespace storlab::demo
