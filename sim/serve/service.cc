// Service: loading, exports, start-up and shutdown (service.h). The request
// path is in service_io.cc, the control commands in service_control.cc, the
// stats in service_stats.cc.
#include "sim/serve/service.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "sim/quoted.h"
#include "sim/serve/names.h"
#include "sim/serve/node_commands.h"
#include "sim/serve/transport_probe.h"

namespace storlab {
namespace {

constexpr uint32_t kMaxRequest = 32u << 20;  // NBD's customary maximum payload

bool IsPowerOfTwo(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

// Whether `n` or a node below it caches reads (a prefetch then helps).
bool CachesReads(const Node& n) {
  if (n.caps().caches_reads) return true;
  for (const Node* c : n.children())
    if (CachesReads(*c)) return true;
  return false;
}

}  // namespace

Result<DataMode> ParseStore(std::string_view text) {
  DataMode m;
  if (text == "memory" || text == "ram") return m;
  if (text == "none") {
    m.kind = DataMode::Kind::kNone;
    return m;
  }
  if (text.substr(0, 5) == "file:" && text.size() > 5) {
    m.kind = DataMode::Kind::kFile;
    m.directory = std::string(text.substr(5));
    return m;
  }
  return Status::InvalidArgument("store: expected memory, none or file:DIR, got " + Quoted(text));
}

Service::Service(const ServiceOptions& options)
    : options_(options),
      driver_(engine_, RealtimeDriver::Options{options.clock, options.spin}),
      comp_(options.compensate),
      replies_(options.reply_threads) {}

Result<std::unique_ptr<Service>> Service::Create(const ServiceOptions& options) {
  std::unique_ptr<Service> s(new Service(options));
  RETURN_IF_ERROR(s->Load());
  return s;
}

Service::~Service() { Shutdown(); }

Status CheckFolderOf(const std::string& what, const std::string& path) {
  // A typo found only at exit would lose the run's stats or state.
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return Status::InvalidArgument(what + ": " + Quoted(path, 256) + ": the folder " +
                                   Quoted(dir.string(), 256) + " does not exist");
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    return Status::InvalidArgument(what + ": " + Quoted(path, 256) + ": the folder " +
                                   Quoted(dir.string(), 256) + " is not writable");
  }
  return Status();
}

Status Service::Load() {
  if (!options_.stats_path.empty()) RETURN_IF_ERROR(CheckFolderOf("stats", options_.stats_path));
  if (!options_.state_dir.empty()) {
    // Saved as DIR.tmp, then renamed over DIR.
    std::string dir = options_.state_dir;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    RETURN_IF_ERROR(CheckFolderOf("state", dir));
  }
  bool fresh = true;
  if (options_.store.kind == DataMode::Kind::kFile) {
    std::error_code ec;
    const auto& dir = options_.store.directory;
    fresh = !std::filesystem::exists(dir, ec) || std::filesystem::is_empty(dir, ec);
    std::filesystem::create_directories(dir, ec);
    if (ec)
      return Status::IoError("store: cannot create " + Quoted(dir, 256) + ": " + ec.message());
  }
  BuildOptions bo;
  bo.seed = options_.seed;
  bo.data_mode = options_.store;
  // The service never forks (its power cut is Service::PowerCutNow, in place).
  bo.data_mode.huge_pages = true;
  bo.data_mode.stream_writes = true;
  bo.data_mode.prefetch = &prefetch_chunks_;
  ASSIGN_OR_RETURN(loaded_, LoadStack(options_.stack, engine_, bo));
  Stack& stack = *loaded_.stack;
  stack_name_ = stack.name();
  Node& root = stack.root();

  std::vector<std::string> names = options_.exports;
  if (names.empty()) names = loaded_.exports;
  if (names.empty()) names.push_back(root.name());
  ASSIGN_OR_RETURN(names, ResolveNodeNames(stack, names, "export"));
  for (const StackFault& f : loaded_.faults) {
    ASSIGN_OR_RETURN(FaultLine line, ParseFaultLine(f.text, f.where + ": [stack] faults"));
    auto n = CheckNodeCommand(stack, line.cmd);
    if (!n.ok()) {
      return Status::InvalidArgument(line.source + " " + Quoted(line.arg) + ": " + line.cmd.verb() +
                                     ": " + n.status().message());
    }
    scheduled_.push_back(std::move(line));
  }

  if (!options_.state_dir.empty()) {
    ASSIGN_OR_RETURN(const bool restored, RestoreState());
    // A restored device holds what earlier runs wrote: the oracle accepts
    // any content until a durable write covers it.
    if (restored) fresh = false;
  }

  const bool track = options_.oracle && options_.store.kind != DataMode::Kind::kNone;
  exports_.resize(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    Export& e = exports_[i];
    e.node = stack.Find(names[i]);
    const Geometry& g = e.node->geometry();
    const Capabilities& c = e.node->caps();
    if (!IsPowerOfTwo(g.logical_block) || g.logical_block > 65536) {
      return Status::InvalidArgument("export " + Quoted(names[i]) + ": logical block " +
                                     std::to_string(g.logical_block) +
                                     " is not a power of two up to 64 KiB (NBD needs one)");
    }
    ExportInfo& info = e.info;
    info.name = names[i];
    info.description = stack.description.empty() ? stack_name_ : stack.description;
    info.description += " (node " + names[i] + ", " + std::string(e.node->type()) + ")";
    info.size = g.capacity;
    info.min_block = g.logical_block;
    info.preferred_block =
        std::max(g.logical_block, IsPowerOfTwo(g.physical_block) ? g.physical_block : 4096u);
    info.max_block = kMaxRequest;
    info.rotational = c.rotational;
    info.trim = c.trim;
    info.volatile_cache = c.volatile_cache;
    info.honors_flush = c.honors_flush;
    info.honors_fua = c.honors_fua;
    info.fast_zero = c.fast_zero;
    info.read_cache = CachesReads(*e.node);
    Node* entry = e.node;
    if (track) {
      e.oracle =
          &stack.Adopt(std::make_unique<Oracle>(engine_, *e.node, fresh, "oracle:" + names[i]));
      // Its reads are checked off the engine thread (Service::FinishCheck).
      e.oracle->set_defer_read_checks(true);
      entry = e.oracle;
    }
    e.port = std::make_unique<Port>(stack, *entry);
    infos_.push_back(info);
  }
  stack.set_root(&root);  // the oracles are not the stack's root
  last_verify_.resize(exports_.size());
  return Status();
}

int Service::FindExport(std::string_view name) const {
  if (name.empty()) return exports_.empty() ? -1 : 0;
  for (size_t i = 0; i < exports_.size(); ++i)
    if (exports_[i].info.name == name) return static_cast<int>(i);
  return -1;
}

std::unique_ptr<Session> Service::OpenSession(int export_index) {
  return std::unique_ptr<Session>(new Session(*this, export_index));
}

Status Service::Start() {
  if (started_) return Status::Internal("service: started twice");
  started_ = true;
  // Threads from here on: nbdkit and the mount have forked by now.
  prefetch_chunks_.store(true, std::memory_order_release);
  replies_.Start();
  driver_.Start();
  if (!scheduled_.empty()) RETURN_IF_ERROR(driver_.Call([this] { ScheduleFaults(); }));
  accepting_.store(true);
  if (options_.compensate.mode == CompensationOptions::Mode::kAuto) Calibrate();
  return Status();
}

void Service::Calibrate() {
  // The service's own path with the stack bypassed: post an empty function
  // to the engine thread and wait for it, as Session::Do does. The median
  // of many, after a warm-up.
  std::vector<int64_t> samples;
  for (int i = 0; i < 300; ++i) {
    int64_t t0 = options_.clock->NowNanos();
    if (!driver_.Call([] {}).ok()) return;
    if (i >= 100) samples.push_back(options_.clock->NowNanos() - t0);
  }
  std::nth_element(samples.begin(), samples.begin() + samples.size() / 2, samples.end());
  comp_.SetBaseline(Nanos(samples[samples.size() / 2]));
  // The transport's floor per size class, 4 KiB to 1 MiB (the compensator
  // scales it above): what tells a client's pause from a round trip.
  for (uint64_t bytes = 4096; bytes <= (1u << 20); bytes *= 2) {
    auto rt = ProbeSocketRoundTrip(bytes, bytes <= (64u << 10) ? 100 : 30, *options_.clock);
    if (!rt.ok()) return;  // no floor: every gap counts as a round trip, as before
    comp_.SetFloor(bytes, *rt);
  }
}

bool Service::Enter() {
  std::lock_guard<std::mutex> l(mu_);
  if (!accepting_.load()) return false;
  ++in_flight_;
  return true;
}

void Service::Leave() {
  std::lock_guard<std::mutex> l(mu_);
  if (--in_flight_ == 0) drained_.notify_all();
}

void Service::Shutdown(Nanos drain) {
  if (shut_down_.exchange(true)) return;
  {
    std::lock_guard<std::mutex> l(mu_);
    accepting_.store(false);
  }
  if (started_) {
    // Let the model finish what it has, then answer the rest.
    std::unique_lock<std::mutex> l(mu_);
    drained_.wait_for(l, std::chrono::nanoseconds(drain.count()), [&] { return in_flight_ == 0; });
    l.unlock();
    (void)driver_.Call([&] {
      for (auto& e : exports_) aborted_ += e.port->AbortAll(Status::Aborted("shutdown"));
    });
    l.lock();
    drained_.wait(l, [&] { return in_flight_ == 0; });
    l.unlock();
    // Checked writable at load; say so if it failed anyway (a full disk).
    if (Status ws = WriteStats(); !ws.ok())
      std::fprintf(stderr, "storlab: the stats were not written: %s\n", ws.ToString().c_str());
  }
  driver_.Stop();
  replies_.Stop();
  if (started_ && !options_.state_dir.empty()) {
    // The exports' log: nbdkit's stderr, the mount's terminal.
    if (Status st = SaveState(); !st.ok())
      std::fprintf(stderr, "storlab: the state was not saved (the previous one stays): %s\n",
                   st.ToString().c_str());
  }
}

}  // namespace storlab
