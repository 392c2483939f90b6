#include "fusefs/mount.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>

#include "fusefs/bdi.h"
#include "fusefs/fuse_ops.h"
#include "sim/serve/compensation.h"
#include "sim/serve/service.h"
#include "sim/serve/vfs/control_dir.h"
#include "sim/serve/vfs/tree_vfs.h"

namespace storlab::fusefs {
namespace {

// FUSE's round trip at QD1 and its ceiling at QD32 on the 2-core CI machine
// (measured-here.md: a minimal libfuse3 RAM file system, O_DIRECT), for the
// start-up warning of a model faster than the transport.
constexpr Nanos kTypicalRoundTrip(33'000);
constexpr double kTypicalCeilingIops = 183'000;

// The exit status for what fuse_session_loop_mt returned. ECONNABORTED
// ends the session as ENODEV does: it is the kernel's read of /dev/fuse
// after the connection was aborted when FUSE_ABORT_ERROR is in effect
// (fs/fuse/dev.c fuse_dev_do_read: `fc->aborted ? -ECONNABORTED :
// -ENODEV`), the same teardown under another errno, and libfuse 3.14's
// fuse_session_receive_buf_int takes only ENODEV for the end (so does
// fuser: cberner/fuser#708). Seen once in CI at the end of a clean
// `storlab umount`. The kernel has failed whatever was in flight; each
// request the service still answers is answered into the closed device.
int SessionEnd(int loop_result) {
  if (loop_result == 0) return 0;
  if (loop_result == -ECONNABORTED || loop_result == ECONNABORTED) {
    std::fprintf(stderr,
                 "storlab mount: the kernel aborted the FUSE connection (unmounted, "
                 "umount -f or fusectl's abort); ending the session\n");
    return 0;
  }
  return 1;
}

int Fail(const std::string& what) {
  std::fprintf(stderr, "storlab mount: %s\n", what.c_str());
  return 1;
}

// Splits the -o lists; takes out the options libfuse's session would
// refuse (per-file caching, which this file system sets in open) and
// returns the rest, comma-joined.
std::string TakeOptions(const std::vector<std::string>& lists, MountOptions& o) {
  std::string rest;
  for (const std::string& list : lists) {
    std::stringstream in(list);
    std::string opt;
    while (std::getline(in, opt, ',')) {
      if (opt.empty()) continue;
      if (opt == "direct_io") {
        o.cache = KernelCache::kDirectIo;
      } else if (opt == "kernel_cache") {
        o.cache = KernelCache::kKeep;
      } else if (opt == "writeback_cache") {
        o.writeback_cache = true;
      } else if (opt == "no_writeback_cache") {
        o.writeback_cache = false;
      } else {
        rest += (rest.empty() ? "" : ",") + opt;
      }
    }
  }
  return rest;
}

const char* CacheLine(const MountOptions& o) {
  if (o.cache == KernelCache::kDirectIo)
    return "direct I/O (every read and write reaches the model)";
  if (o.writeback_cache) {
    return o.cache == KernelCache::kKeep
               ? "write-back cache + kept page cache (the kernel absorbs writes and serves reads)"
               : "write-back cache (the kernel absorbs writes up to the bdi limit)";
  }
  if (o.cache == KernelCache::kKeep) return "kept page cache for reads; writes go through";
  return "page cache for reads, dropped at each open; writes go through";
}

}  // namespace

int RunMount(const MountOptions& in) {
  MountOptions o = in;
  const std::string extra = TakeOptions(o.fuse_options, o);
  if (o.writeback_cache && o.cache == KernelCache::kDirectIo)
    return Fail("--writeback-cache and --direct-io exclude each other");

  if (!o.state.empty() && o.tree) {
    return Fail(
        "--state saves the devices' state, but the tree mode keeps its names and inodes in "
        "memory only: use it with image files (no --tree)");
  }
  ServiceOptions so;
  so.stack = o.stack;
  so.exports = o.exports;
  so.seed = o.seed;
  so.state_dir = o.state;
  auto store = ParseStore(o.store);
  if (!store.ok()) return Fail(store.status().message());
  so.store = *store;
  so.oracle = o.oracle;
  auto compensate = ParseCompensation(o.compensate);
  if (!compensate.ok()) return Fail(compensate.status().message());
  so.compensate = *compensate;
  auto created = Service::Create(so);
  if (!created.ok()) return Fail(created.status().ToString());
  std::unique_ptr<Service> service = std::move(created).value();
  if (!o.tree) {
    for (size_t i = 0; i < service->exports().size(); ++i) {
      std::string w =
          service->SpeedWarning(static_cast<int>(i), kTypicalRoundTrip, kTypicalCeilingIops);
      if (!w.empty()) std::fprintf(stderr, "storlab mount: warning: %s\n", w.c_str());
    }
  }

  // The FUSE arguments: ours, then the user's -o (conn options taken out by
  // fuse_parse_conn_info_opts, applied in init).
  std::string opts =
      "default_permissions,fsname=storlab:" + service->stack_name() + ",subtype=storlab";
  if (!extra.empty()) opts += "," + extra;
  std::vector<std::string> argv_s = {"storlab", "-o", opts};
  std::vector<char*> argv;
  argv.reserve(argv_s.size());
  for (auto& a : argv_s) argv.push_back(a.data());
  fuse_args args = FUSE_ARGS_INIT(static_cast<int>(argv.size()), argv.data());
  Fs fs;
  fs.writeback_cache = o.writeback_cache;
  fs.max_write = o.max_write;
  fs.conn_opts = fuse_parse_conn_info_opts(&args);
  if (fs.conn_opts == nullptr) return Fail("bad -o options");
  fuse_session* se = fuse_session_new(&args, &Operations(), sizeof(fuse_lowlevel_ops), &fs);
  fuse_opt_free_args(&args);
  if (se == nullptr) {
    free(fs.conn_opts);  // NOLINT: malloc()ed by libfuse
    return Fail("the FUSE session could not be created (bad -o options?)");
  }
  int rc = 1;
  if (fuse_set_signal_handlers(se) != 0) {
    fuse_session_destroy(se);
    free(fs.conn_opts);  // NOLINT: malloc()ed by libfuse
    return Fail("cannot set signal handlers");
  }
  if (fuse_session_mount(se, o.mountpoint.c_str()) != 0) {
    fuse_remove_signal_handlers(se);
    fuse_session_destroy(se);
    free(fs.conn_opts);  // NOLINT: malloc()ed by libfuse
    return Fail("cannot mount at " + o.mountpoint);
  }
  // The bdi: set it if asked, and say what the mount runs with.
  std::string bdi_line;
  auto bdi = FindBdi(o.mountpoint);
  Status bdi_st = bdi.status();
  if (bdi.ok() && o.bdi_max_ratio > 0) bdi_st = SetBdiMaxRatio(*bdi, o.bdi_max_ratio);
  if (bdi.ok()) {
    auto s = ReadBdi(*bdi);
    if (s.ok()) bdi_line = s->ToString();
  }
  if (!bdi_st.ok() && o.bdi_max_ratio > 0) {
    fuse_session_unmount(se);
    fuse_remove_signal_handlers(se);
    fuse_session_destroy(se);
    free(fs.conn_opts);  // NOLINT: malloc()ed by libfuse
    return Fail(bdi_st.message());
  }
  std::string what;
  for (const auto& e : service->exports()) what += (what.empty() ? "" : ", ") + e.name;
  std::printf(
      "storlab mount: %s at %s, %s %s; caching: %s; %s%s\n", service->stack_name().c_str(),
      o.mountpoint.c_str(), o.tree ? "a file tree on" : "images of",
      o.tree ? service->exports()[0].name.c_str() : what.c_str(), CacheLine(o),
      bdi_line.empty() ? "bdi: unknown" : bdi_line.c_str(),
      o.bdi_max_ratio > 0 ? " (set by --bdi-max-ratio)" : " (the kernel's default for FUSE)");
  std::fflush(stdout);

  if (fuse_daemonize(o.foreground ? 1 : 0) != 0) {
    std::fprintf(stderr, "storlab mount: cannot daemonize\n");
  } else if (Status st = service->Start(); !st.ok()) {
    std::fprintf(stderr, "storlab mount: %s\n", st.ToString().c_str());
  } else {
    VfsOptions vo;
    vo.cache = o.cache;
    vo.uid = getuid();
    vo.gid = getgid();
    std::unique_ptr<Vfs> inner;
    if (o.tree) {
      inner = std::make_unique<TreeVfs>(*service, 0, vo);
    } else {
      inner = std::make_unique<ImageVfs>(*service, vo);
    }
    auto vfs = std::make_unique<StorlabDir>(*service, std::move(inner), vo);
    vfs->SetMountInfo({{"pid", getpid()},
                       {"mountpoint", o.mountpoint},
                       {"mode", o.tree ? "tree" : "images"},
                       {"caching", CacheLine(o)},
                       {"bdi", bdi_line}});
    fs.vfs = vfs.get();
    fuse_loop_config* cfg = fuse_loop_cfg_create();
    // Handlers never wait for the model, so a few threads keep up; more
    // only contend for the FUSE connection's queue (measured: 4 threads
    // serve twice the 4 KiB QD32 writes of 32 on the 2-core CI machine).
    fuse_loop_cfg_set_max_threads(cfg, static_cast<unsigned>(o.threads));
    // And none of them exits when idle: libfuse's worker loop (fuse_do_work)
    // ends a thread whenever more than max_idle wait, and starts one whenever
    // none is free, so at QD32 a pool of 4 with 2 idle created and destroyed
    // ~2300 threads a second (strace: clone3, madvise), each with a cold
    // malloc arena and stack.
    fuse_loop_cfg_set_idle_threads(cfg, static_cast<unsigned>(o.threads));
    rc = SessionEnd(fuse_session_loop_mt(se, cfg));
    fuse_loop_cfg_destroy(cfg);
    // Every request in flight gets its answer while the session still
    // exists; then the control thread finishes what was queued.
    service->Shutdown();
    vfs.reset();
  }
  fuse_session_unmount(se);
  fuse_remove_signal_handlers(se);
  fuse_session_destroy(se);
  free(fs.conn_opts);  // NOLINT: fuse_parse_conn_info_opts malloc()s it
  return rc;
}

}  // namespace storlab::fusefs
