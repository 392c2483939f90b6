// Service: a simulated stack served in real time — the part the NBD plugin
// (nbd/) and the FUSE mount (fusefs/) share, so that both are only glue.
//
// It owns the engine, the stack (a catalog name or a stack file), the
// real-time driver, and for each exported node a durability oracle and a
// Port (sim/port.h); the compensator (compensation.h), a reply pool
// (reply_pool.h) and the stats. A transport opens a Session per connection
// and submits requests from its own threads:
//   - Session::Do blocks the calling thread until the model has completed
//     the request: for nbdkit, whose worker threads reply when a callback
//     returns;
//   - Session::Submit does not wait; its reply runs on one of the
//     service's reply threads — or, when the model answers at once on the
//     submitting thread (the engine was free: RunHere), on that thread
//     before Submit returns, once the engine is let go: for FUSE's
//     low-level API.
// No reply ever runs on the engine's thread, so the simulated clock never
// waits for a socket or the kernel. Every request is answered exactly once:
// with the model's status; with kAborted (EIO) when a power cut or the
// shutdown overtakes it; at once with an error when it is malformed or the
// service is shutting down.
//
// Control commands (control.h) run on the engine's thread, on the same
// timeline as the requests. Several nodes of one stack can be exported at
// once; they share the engine, so four exported disks under one controller
// see one clock.
//
// Threading: Create(), Start() and Shutdown() belong to the owner; every
// other method is thread-safe.
#ifndef STORLAB_SIM_SERVE_SERVICE_H_
#define STORLAB_SIM_SERVE_SERVICE_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sim/callback.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/histogram.h"
#include "sim/oracle.h"
#include "sim/port.h"
#include "sim/profile/loader.h"
#include "sim/realtime_driver.h"
#include "sim/request.h"
#include "sim/serve/compensation.h"
#include "sim/serve/control.h"
#include "sim/serve/fault_line.h"
#include "sim/serve/reply_pool.h"
#include "sim/status.h"
#include "sim/store/store.h"

namespace storlab {

struct ServiceOptions {
  std::string stack;                 // a catalog name or a stack file
  std::vector<std::string> exports;  // node names; empty: the file's [stack]
                                     // exports, else the root
  DataMode store;                    // memory by default
  uint64_t seed = 1;
  bool oracle = true;  // track durability (only where the store keeps data)
  CompensationOptions compensate;
  std::string stats_path;  // written at shutdown and on `stats`; "": none
  // A saved state (sim/state_dir.h) to start from, when DIR holds one, and
  // to save the whole stack into at shutdown, once it is idle; "": none.
  std::string state_dir;
  Clock* clock = Clock::Real();
  Nanos spin;             // RealtimeDriver::Options::spin
  int reply_threads = 2;  // for Session::Submit
};

// "memory", "none" or "file:DIR".
Result<DataMode> ParseStore(std::string_view text);

// Whether a file can be made at `path` later (the stats and the state at
// exit, a control socket after nbdkit forks): its folder exists and is
// writable. `what` names the setting in the error.
Status CheckFolderOf(const std::string& what, const std::string& path);

// What an export offers, from its node's geometry and capabilities.
struct ExportInfo {
  std::string name;         // the node's name: the NBD export name, the image name
  std::string description;  // the stack's description and the node's type
  uint64_t size = 0;
  uint32_t min_block = 512;         // logical block: smaller or misaligned is refused
  uint32_t preferred_block = 4096;  // physical block
  uint32_t max_block = 32u << 20;   // the largest request accepted
  bool rotational = false;
  bool trim = false;
  bool volatile_cache = false;
  bool honors_flush = true;
  bool honors_fua = true;
  bool fast_zero = false;   // a write-zeroes costs less than writing zeros
  bool read_cache = false;  // something below caches reads: a prefetch helps
};

// One request from a transport.
struct ExportRequest {
  Op op = Op::kRead;
  uint32_t flags = 0;  // kFua, kNoUnmap
  uint64_t offset = 0;
  uint64_t length = 0;
  // kRead: filled before the answer; kWrite: read until the answer.
  // nullptr: no data (a read that only warms caches: NBD_CMD_CACHE).
  uint8_t* data = nullptr;
  bool fast_zero = false;  // kWriteZeroes: fail with kNotSupported if slow
};

class Session;

class Service {
 public:
  // Loads the stack and prepares the exports; starts no thread (nbdkit
  // forks after loading: threads start in Start()).
  static Result<std::unique_ptr<Service>> Create(const ServiceOptions& options);
  ~Service();  // Shutdown()s
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  // Starts the driver and the reply threads, and calibrates the service's
  // own path (compensation.h). REQUIRES: not started.
  Status Start();
  // Refuses new requests, waits up to `drain` for those in flight, answers
  // the rest with kAborted, writes the stats file, stops the threads.
  // Idempotent.
  void Shutdown(Nanos drain = Nanos(30'000'000'000));

  const std::vector<ExportInfo>& exports() const { return infos_; }
  // Index of the export named `name` ("" is the first); -1 if none.
  int FindExport(std::string_view name) const;
  const std::string& stack_name() const { return stack_name_; }

  // One connection of a transport. REQUIRES: 0 <= export_index < exports().
  std::unique_ptr<Session> OpenSession(int export_index);

  // Runs one control command (control.h) and returns its one-line answer,
  // "error: ..." for a bad one (which changes nothing). Blocks the caller
  // until the command is done (a flush takes the model's time).
  std::string Control(std::string_view line);
  // Everything the service and the stack count, as JSON (stats.json).
  nlohmann::ordered_json Stats();
  // Writes Stats() to options().stats_path (atomically: a temporary file,
  // then rename). OK and nothing written when no path is set.
  Status WriteStats();

  // The model's own speed (4 KiB random reads at QD1 and QD32, in virtual
  // time on a copy of the stack) next to what the transport costs, as a
  // sentence when the export will under-deliver; "" when it will not.
  // `transport_rtt`: one round trip of the export path at QD1;
  // `transport_iops`: what the transport serves at most at QD32.
  std::string SpeedWarning(int export_index, Nanos transport_rtt, double transport_iops) const;

  const ServiceOptions& options() const { return options_; }
  Compensator& compensator() { return comp_; }

  // A read's oracle check split across threads (sim/oracle.h): the capture
  // on the engine thread, the hashing and comparing on the thread that
  // answers, before it answers. Public for service_io.cc's waiters only.
  struct ReadCheck {
    Oracle* oracle = nullptr;  // nullptr: nothing to check
    uint64_t mark = 0;
    OracleReadCheck capture;
    // Engine thread, first thing in the request's completion.
    void Capture(const ExportRequest& req, const Status& st);
  };

 private:
  friend class Session;
  struct Export {
    ExportInfo info;
    Node* node = nullptr;
    Oracle* oracle = nullptr;  // owned by the stack; nullptr without data
    std::unique_ptr<Port> port;
    double model_qd1_latency_us = 0;  // from the virtual-time probe
    double model_qd32_iops = 0;
  };
  explicit Service(const ServiceOptions& options);
  Status Load();
  // Engine thread: submits `io` to export `e`'s port; `check` (for a read
  // with data of an export with an oracle) is captured at its successful
  // completion, before `done` runs.
  void StartIo(int e, const ExportRequest& req, ReadCheck& check, Completion done);
  // The thread that answers: checks a captured read (a no-op otherwise).
  static void FinishCheck(const ExportRequest& req, ReadCheck& check);
  void RunCommand(const ControlCommand& cmd, Callback<void(std::string)> answer);
  void PowerCutNow(Callback<void(std::string)> answer);
  // The stack file's [stack] faults, each at its time after Start() (on the
  // engine thread; its answer goes to stderr, the exports' log).
  void ScheduleFaults();
  void FlushAll(Callback<void(std::string)> answer);
  nlohmann::ordered_json StatsOnEngine() const;
  void ResetStatsOnEngine();
  void Calibrate();
  // Restores options_.state_dir into the stack just loaded (before the
  // oracles); true when DIR held a state, false when it held none yet (as
  // RestoreHostState does). Refuses a stack that cannot save, or a state
  // of another stack or data mode, naming DIR.
  Result<bool> RestoreState();
  // At shutdown, the driver stopped: runs the stack until idle in virtual
  // time and saves it to options_.state_dir (atomically).
  Status SaveState();
  // Counting requests in flight, for the drain at shutdown.
  bool Enter();
  void Leave();

  const ServiceOptions options_;
  // The stores' chunks made ahead by a thread (DataMode::prefetch): from
  // Start() on, after the process has forked. Before loaded_: outlives the
  // stores.
  std::atomic<bool> prefetch_chunks_{false};
  std::string stack_name_;
  Engine engine_;
  LoadedStack loaded_;
  std::vector<FaultLine> scheduled_;  // [stack] faults, checked at load
  std::vector<Export> exports_;
  std::vector<ExportInfo> infos_;
  RealtimeDriver driver_;
  Compensator comp_;
  ReplyPool replies_;

  std::mutex mu_;  // guards in_flight_ with drained_
  std::condition_variable drained_;
  uint64_t in_flight_ = 0;
  std::atomic<bool> accepting_{false};
  std::atomic<bool> shut_down_{false};
  bool started_ = false;
  // Counters (atomics: bumped on transport threads).
  std::atomic<uint64_t> submitted_{0}, completed_{0}, refused_{0};
  // The hand-back of Session::Do: from the model's completion of a request
  // on another thread to its caller running again (the caller's wake-up).
  mutable std::mutex hand_back_mu_;
  LatencyHistogram hand_back_;
  // Engine thread only.
  uint64_t aborted_ = 0;
  uint64_t power_cuts_ = 0;
  std::vector<OracleReport> last_verify_;  // per export, after the last cut
};

// One transport connection to one export. Its methods are thread-safe: a
// connection may have many requests in flight (nbdkit's parallel threads).
class Session {
 public:
  ~Session() = default;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  using Reply = Callback<void(Status), 64>;
  struct Timing;  // of one request, for compensation (service_io.cc)

  int export_index() const { return export_; }
  // Blocks until the model completes `req`; returns its status.
  Status Do(const ExportRequest& req);
  // Does not wait for the model; `reply` runs exactly once, on a reply
  // thread or (answered at once, not from inside another such reply) on
  // this one before Submit returns: hold no lock `reply` takes.
  void Submit(const ExportRequest& req, Reply reply);

 private:
  friend class Service;
  Session(Service& service, int export_index) : svc_(service), export_(export_index) {}
  // Before and after one request: the idle gap and the overhead that
  // compensation.h measures; returns the backdate.
  Nanos Arrive(const ExportRequest& req, Timing& t);
  void Answered(const ExportRequest& req, const Timing& t);
  // Refuses `req` at once (a null status: it may go to the engine).
  Status Precheck(const ExportRequest& req) const;

  Service& svc_;
  const int export_;
  std::mutex mu_;
  int outstanding_ = 0;
  int64_t last_answer_wall_ = -1;
  uint64_t last_answer_bytes_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_SERVICE_H_
