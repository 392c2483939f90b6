// nbdkit-storlab-plugin: a simulated storage stack served over NBD in real
// time. Glue only: the stack, its timing, the oracle, control and stats are
// the real-time service of sim/serve/service.h; each nbdkit callback turns
// into one Session request, answered when the model completes it.
//
//   nbdkit storlab stack=nas-1gbe-raid5
//   nbdkit -U - storlab my-stack.toml export=disk.0 export=disk.1
//       control=/tmp/ctl stats=/tmp/stats.json --run 'nbdinfo --list $uri'
//
// Thread model PARALLEL: nbdkit runs up to --threads requests of a
// connection at once (default 16), so a client's queue depth reaches the
// model; give --threads at least the client's queue depth.
#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>

#include "sim/profile/catalog.h"
#include "sim/profile/units.h"
#include "sim/quoted.h"
#include "sim/serve/control_socket.h"
#include "sim/serve/service.h"
#include "sim/status_errno.h"

#define THREAD_MODEL NBDKIT_THREAD_MODEL_PARALLEL

namespace {

using storlab::ExportRequest;
using storlab::Op;
using storlab::Service;
using storlab::Session;
using storlab::Status;

// An NBD round trip over a Unix socket and nbdkit's ceiling at QD32 on the
// 2-core CI machine (shared/reference/measured-here.md: nbdkit memory plugin,
// fio's nbd engine), for the start-up warning; compensate=DURATION overrides
// the round trip.
constexpr storlab::Nanos kTypicalRoundTrip(57'000);
constexpr double kTypicalCeilingIops = 136'000;

storlab::ServiceOptions options;
std::string control_path;
std::unique_ptr<Service> service;
std::unique_ptr<storlab::ControlSocket> control;

// One NBD connection.
struct Handle {
  std::unique_ptr<Session> session;
};

// Reports `st` to nbdkit (its errno and message) and returns -1.
int Fail(const Status& st) {
  nbdkit_set_error(storlab::ToErrno(st));
  nbdkit_error("%s", st.ToString().c_str());
  return -1;
}

// Runs `fn`, turning an escaping exception into EIO: none crosses into C.
template <typename F>
int Guard(F&& fn) {
  try {
    return fn();
  } catch (const std::exception& e) {
    return Fail(Status::Internal(e.what()));
  } catch (...) {
    return Fail(Status::Internal("unknown exception"));
  }
}

int Request(void* handle, Op op, uint32_t flags, void* buf, uint32_t count, uint64_t offset,
            bool fast_zero = false) {
  return Guard([&] {
    ExportRequest r;
    r.op = op;
    r.offset = offset;
    r.length = count;
    r.data = static_cast<uint8_t*>(buf);
    r.fast_zero = fast_zero;
    if (flags & NBDKIT_FLAG_FUA) r.flags |= storlab::kFua;
    if (op == Op::kWriteZeroes && !(flags & NBDKIT_FLAG_MAY_TRIM)) r.flags |= storlab::kNoUnmap;
    Status st = static_cast<Handle*>(handle)->session->Do(r);
    return st.ok() ? 0 : Fail(st);
  });
}

const storlab::ExportInfo& Info(void* handle) {
  return service->exports()[static_cast<Handle*>(handle)->session->export_index()];
}

// Parses one key=value parameter.
int storlab_config(const char* key, const char* value) {
  return Guard([&] {
    const std::string k = key, v = value;
    if (k == "stack") {
      options.stack = v;
    } else if (k == "export") {
      options.exports.push_back(v);
    } else if (k == "store") {
      auto m = storlab::ParseStore(v);
      if (!m.ok()) return Fail(m.status());
      options.store = *m;
    } else if (k == "seed") {
      // Our own message: nbdkit's calls "abc" an empty string.
      const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), options.seed);
      if (v.empty() || ec != std::errc() || end != v.data() + v.size()) {
        return Fail(storlab::Status::InvalidArgument(
            "seed: expected a whole number from 0 to 18446744073709551615, got '" + v + "'"));
      }
    } else if (v.empty() && (k == "stats" || k == "state" || k == "control")) {
      return Fail(storlab::Status::InvalidArgument(k + "=: expected a path, got nothing"));
    } else if (k == "stats") {
      options.stats_path = v;
    } else if (k == "state") {
      options.state_dir = v;
    } else if (k == "control") {
      control_path = v;
    } else if (k == "compensate") {
      auto c = storlab::ParseCompensation(v);
      if (!c.ok()) return Fail(c.status());
      options.compensate = *c;
    } else if (k == "spin") {
      auto d = storlab::ParseDuration(v);
      if (!d.ok()) return Fail(d.status().WithContext("spin"));
      // Polling longer than this before each event is a core kept busy
      // for nothing (the events of the slowest device are milliseconds apart).
      if (*d > storlab::Nanos(100'000'000)) {
        return Fail(storlab::Status::InvalidArgument("spin: at most 100ms, got '" + v + "'"));
      }
      options.spin = *d;
    } else if (k == "oracle") {
      int b = nbdkit_parse_bool(value);
      if (b == -1) return -1;
      options.oracle = b == 1;
    } else {
      return Fail(Status::InvalidArgument("unknown parameter " + storlab::Quoted(k) +
                                          " (see nbdkit storlab --help)"));
    }
    return 0;
  });
}

// Rejects what is missing.
int storlab_config_complete() {
  if (options.stack.empty()) {
    return Fail(Status::InvalidArgument(
        "stack=STACK is required: a catalog name (`storlab stacks`) or a stack file"));
  }
  // The control socket is made after nbdkit forks, where an error reaches
  // no terminal (and --run's command runs regardless): its folder is
  // checked here.
  if (!control_path.empty()) {
    Status st = storlab::CheckFolderOf("control", control_path);
    if (!st.ok()) return Fail(st);
  }
  return 0;
}

#define storlab_config_help                                                               \
  "stack=STACK|FILE     (required) a catalog stack or a stack file\n"                     \
  "export=NAME          a node to export (repeat for several; default: the file's\n"      \
  "                     [stack] exports, else the root); NAME.0 ... for copies\n"         \
  "store=memory|none|file:DIR  where data lives (default memory; none: timing only)\n"    \
  "seed=N               the models' seed (default 1)\n"                                   \
  "stats=FILE           write per-node stats as JSON at exit and on `stats`\n"            \
  "state=DIR            start from the stack's state saved in DIR (if any) and save\n"    \
  "                     it there at exit, once the stack is idle\n"                       \
  "control=SOCKET       a Unix socket (mode 0600) for the control commands:\n"            \
  "                     power-cut, flush, fail NAME, replace NAME, detach NAME,\n"        \
  "                     attach NAME, delay NAME DURATION for DURATION, media-error\n"     \
  "                     NAME OFFSET+LENGTH, corrupt NAME OFFSET, ignore-fua NAME,\n"      \
  "                     reset-stats, stats (docs/nbd.md)\n"                               \
  "compensate=auto|off|DURATION  deduct the transport's round trip from the model's\n"    \
  "                     delay (default auto: measured from the traffic; a client's\n"     \
  "                     pause before a request is kept, not deducted)\n"                  \
  "spin=DURATION        poll the clock this long before each event instead of sleeping\n" \
  "oracle=true|false    track durability of every block (default true with data)"

// Loads the stack (before nbdkit forks: errors reach the terminal).
int storlab_get_ready() {
  return Guard([&] {
    // An idle connection's own gap, deducted up to the recent round trips'
    // 90th percentile (compensation.h): an NBD client has sent its whole
    // request before nbdkit reads it, so no part of the gap lies inside
    // the client's own submission, as some does through FUSE.
    options.compensate.idle_quantile = 90;
    auto s = Service::Create(options);
    if (!s.ok()) return Fail(s.status());
    service = std::move(s).value();
    return 0;
  });
}

// Starts the threads (after nbdkit has forked into the background).
int storlab_after_fork() {
  return Guard([&] {
    Status st = service->Start();
    if (!st.ok()) return Fail(st);
    // Where the model is faster than the transport, say so (the service's
    // own path is calibrated by Start()).
    const storlab::Nanos rtt = options.compensate.mode == storlab::CompensationOptions::Mode::kFixed
                                   ? options.compensate.fixed
                                   : kTypicalRoundTrip + service->compensator().baseline();
    for (size_t i = 0; i < service->exports().size(); ++i) {
      std::string w = service->SpeedWarning(static_cast<int>(i), rtt, kTypicalCeilingIops);
      if (!w.empty()) std::fprintf(stderr, "nbdkit-storlab: warning: %s\n", w.c_str());
    }
    if (!control_path.empty()) {
      control = std::make_unique<storlab::ControlSocket>(
          control_path, [](std::string_view line) { return service->Control(line); });
      st = control->Start();
      if (!st.ok()) return Fail(st);
    }
    return 0;
  });
}

// Stops serving: answers what is left, writes the stats.
void storlab_cleanup() {
  try {
    if (control) control->Stop();
    if (service) service->Shutdown();
  } catch (...) {
  }
}

void storlab_unload() {
  control.reset();
  service.reset();
}

// Prints the parameters and the catalog.
void storlab_dump_plugin() {
  std::printf(
      "storlab_parameters=stack export store seed state stats control compensate spin oracle\n");
  std::string names;
  for (const auto& c : storlab::Catalog())
    names += (names.empty() ? "" : " ") + std::string(c.name);
  std::printf("storlab_catalog=%s\n", names.c_str());
}

// Lists the exported nodes.
int storlab_list_exports(int readonly, int is_tls, struct nbdkit_exports* exports) {
  for (const auto& e : service->exports())
    if (nbdkit_add_export(exports, e.name.c_str(), e.description.c_str()) == -1) return -1;
  return 0;
}

// The first export is the default one.
const char* storlab_default_export(int readonly, int is_tls) {
  return service->exports().empty() ? "" : service->exports()[0].name.c_str();
}

// Opens a connection to the export the client named.
void* storlab_open(int readonly) {
  const char* name = nbdkit_export_name();
  int idx = service->FindExport(name ? name : "");
  if (idx < 0) {
    std::string list;
    for (const auto& e : service->exports()) list += (list.empty() ? "" : ", ") + e.name;
    nbdkit_error("no export '%s' (exports: %s)", name, list.c_str());
    nbdkit_set_error(ENOENT);
    return nullptr;
  }
  return new Handle{service->OpenSession(idx)};
}

// Closes a connection.
void storlab_close(void* handle) { delete static_cast<Handle*>(handle); }

// The export's description.
const char* storlab_export_description(void* handle) { return Info(handle).description.c_str(); }

// The node's capacity.
int64_t storlab_get_size(void* handle) { return static_cast<int64_t>(Info(handle).size); }

// Minimum (logical block), preferred (physical block) and maximum request.
int storlab_block_size(void* handle, uint32_t* minimum, uint32_t* preferred, uint32_t* maximum) {
  const auto& i = Info(handle);
  *minimum = i.min_block;
  *preferred = i.preferred_block;
  *maximum = i.max_block;
  return 0;
}

// Writes are always possible (nbdkit -r makes the export read-only).
int storlab_can_write(void* handle) { return 1; }
// FLUSH always reaches the model (a stack without a volatile cache finishes it at once).
int storlab_can_flush(void* handle) { return 1; }
// FUA passes to the model, which keeps its promise or, like a bridge with broken FUA, not.
int storlab_can_fua(void* handle) { return NBDKIT_FUA_NATIVE; }
// Seeks cost time.
int storlab_is_rotational(void* handle) { return Info(handle).rotational ? 1 : 0; }
// Discard, where the stack takes it.
int storlab_can_trim(void* handle) { return Info(handle).trim ? 1 : 0; }
// Write-zeroes always reaches the model.
int storlab_can_zero(void* handle) { return 1; }
// Fast zero is answered at once: done where zeroing is cheap, ENOTSUP where not.
int storlab_can_fast_zero(void* handle) { return 1; }
// All connections share one model, so a flush on one covers the writes of all.
int storlab_can_multi_conn(void* handle) { return 1; }
// A prefetch (NBD_CMD_CACHE) is a read into the stack's caches, where it has one.
int storlab_can_cache(void* handle) {
  return Info(handle).read_cache ? NBDKIT_CACHE_NATIVE : NBDKIT_CACHE_NONE;
}

// Reads, answered when the model completes them.
int storlab_pread(void* h, void* buf, uint32_t count, uint64_t offset, uint32_t flags) {
  return Request(h, Op::kRead, flags, buf, count, offset);
}
// Writes (FUA: durable when answered, where the stack honours it).
int storlab_pwrite(void* h, const void* buf, uint32_t count, uint64_t offset, uint32_t flags) {
  return Request(h, Op::kWrite, flags, const_cast<void*>(buf), count, offset);
}
// Makes every write answered before it durable.
int storlab_flush(void* h, uint32_t flags) { return Request(h, Op::kFlush, 0, nullptr, 0, 0); }
// Discards.
int storlab_trim(void* h, uint32_t count, uint64_t offset, uint32_t flags) {
  return Request(h, Op::kTrim, flags, nullptr, count, offset);
}
// Writes zeroes (may unmap unless the client said NO_HOLE).
int storlab_zero(void* h, uint32_t count, uint64_t offset, uint32_t flags) {
  return Request(h, Op::kWriteZeroes, flags, nullptr, count, offset,
                 (flags & NBDKIT_FLAG_FAST_ZERO) != 0);
}
// Reads into the stack's caches without returning data.
int storlab_cache(void* h, uint32_t count, uint64_t offset, uint32_t flags) {
  return Request(h, Op::kRead, 0, nullptr, count, offset);
}

struct nbdkit_plugin plugin = {
    .name = "storlab",
    .longname = "storlab: simulated storage stacks in real time",
    .version = "0.1.0",
    .description =
        "Serves a simulated storage stack (HDD, SSD, RAID, NAS ...) with its timing "
        "and durability",
    .load = nullptr,
    .unload = storlab_unload,
    .config = storlab_config,
    .config_complete = storlab_config_complete,
    .config_help = storlab_config_help,
    .open = storlab_open,
    .close = storlab_close,
    .get_size = storlab_get_size,
    .can_write = storlab_can_write,
    .can_flush = storlab_can_flush,
    .is_rotational = storlab_is_rotational,
    .can_trim = storlab_can_trim,
    .errno_is_preserved = 0,
    .dump_plugin = storlab_dump_plugin,
    .can_zero = storlab_can_zero,
    .can_fua = storlab_can_fua,
    .pread = storlab_pread,
    .pwrite = storlab_pwrite,
    .flush = storlab_flush,
    .trim = storlab_trim,
    .zero = storlab_zero,
    .magic_config_key = "stack",
    .can_multi_conn = storlab_can_multi_conn,
    .can_cache = storlab_can_cache,
    .cache = storlab_cache,
    .can_fast_zero = storlab_can_fast_zero,
    .get_ready = storlab_get_ready,
    .after_fork = storlab_after_fork,
    .list_exports = storlab_list_exports,
    .default_export = storlab_default_export,
    .export_description = storlab_export_description,
    .cleanup = storlab_cleanup,
    .block_size = storlab_block_size,
};

}  // namespace

NBDKIT_REGISTER_PLUGIN(plugin)
