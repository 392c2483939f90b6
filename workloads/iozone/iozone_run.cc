#include "workloads/iozone/iozone_run.h"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "sim/random.h"
#include "sim/virtual_driver.h"
#include "workloads/fio/engines.h"

namespace storlab::iozone {
namespace {

using namespace time_literals;

enum class Kind { kWrite, kRewrite, kRead, kReread, kRandRead, kRandWrite };

struct Child {
  uint32_t file = 0;
  uint64_t done = 0;     // records finished
  uint64_t counted = 0;  // records counted before the stonewall
  bool stopped = false;  // noticed the stonewall (or finished first)
  bool fsyncing = false;
  bool exited = false;
  Nanos elapsed;  // its counted time
  Random rng{1};
};

// One phase: N children, stonewalled, in virtual time.
class Phase {
 public:
  Phase(SimHost& host, const IozoneSpec& spec, Kind kind, std::vector<uint32_t> files,
        uint64_t seed)
      : host_(host),
        spec_(spec),
        kind_(kind),
        psync_(fio::GetEngineModel(fio::EngineKind::kPsync)),
        recs_(spec.file_size / spec.record_size) {
    children_.resize(files.size());
    for (size_t i = 0; i < files.size(); ++i) {
      children_[i].file = files[i];
      children_[i].rng = Random(seed, "iozone.child." + std::to_string(i));
    }
  }

  Status Run(const std::function<void(Nanos)>& progress) {
    start_ = host_.engine().now();
    for (size_t i = 0; i < children_.size(); ++i) Issue(i, start_);
    uint64_t n = 0;
    Watchdog watchdog(host_.stack());
    RETURN_IF_ERROR(VirtualDriver(host_.engine())
                        .RunWatched(
                            [&] {
                              if (progress && (++n & 0x3ffff) == 0) progress(host_.engine().now());
                              return exited_ < children_.size();
                            },
                            watchdog));
    return status_;
  }

  PhaseResult Result(const char* name) const {
    PhaseResult r;
    r.name = name;
    double ptotal = 0;
    for (const Child& c : children_) {
      ChildResult cr;
      cr.actual = Units(c.counted);
      cr.throughput = c.elapsed > Nanos(0) ? cr.actual / c.elapsed.seconds() : 0;
      ptotal += cr.actual;
      r.children.push_back(cr);
    }
    r.parent_time = end_ - start_;
    r.parent_throughput = r.parent_time > Nanos(0) ? ptotal / r.parent_time.seconds() : 0;
    return r;
  }

 private:
  bool writes() const {
    return kind_ == Kind::kWrite || kind_ == Kind::kRewrite || kind_ == Kind::kRandWrite;
  }
  double Units(uint64_t recs) const {
    return spec_.ops ? static_cast<double>(recs)
                     : static_cast<double>(recs * spec_.record_size) / 1024.0;
  }

  // The child makes its next call at `t` (its thread is free then).
  void Issue(size_t i, Nanos t) {
    Child& c = children_[i];
    if (c.done == recs_) {
      Exit(i, t);
      return;
    }
    uint64_t rec = c.done;
    if (kind_ == Kind::kRandRead || kind_ == Kind::kRandWrite) rec = c.rng.Uniform(recs_);
    Nanos call = host_.cpu().Run(t, psync_.prep + psync_.submit);
    host_.engine().At(call, [this, i, rec] {
      Op op = writes() ? Op::kWrite : Op::kRead;
      // -o: O_SYNC writes are FUA writes (the page cache syncs their range).
      uint32_t flags = spec_.sync_writes && op == Op::kWrite ? kFua : 0;
      host_.FileIo(
          children_[i].file, op, rec * spec_.record_size, spec_.record_size, spec_.direct,
          [this, i](Status st) { OnDone(i, std::move(st)); }, flags);
    });
  }

  void OnDone(size_t i, Status st) {
    if (!st.ok() && status_.ok()) status_ = st;
    Child& c = children_[i];
    Nanos back = host_.cpu().Run(host_.engine().now(), psync_.complete);
    ++c.done;
    if (!c.stopped) c.counted = c.done;
    if (!c.stopped && (c.done == recs_ || (stonewall_ && back >= stonewall_at_))) {
      Stop(i, back);
      return;
    }
    Issue(i, back);
  }

  // The child records its figures (after its fsync with -e), then goes on
  // uncounted if records remain.
  void Stop(size_t i, Nanos t) {
    Child& c = children_[i];
    c.stopped = true;
    auto record = [this, i](Nanos when) {
      Child& ch = children_[i];
      ch.elapsed = when - start_;
      if (ch.done == recs_ && !stonewall_) {
        stonewall_ = true;  // the first child to finish stops the others
        stonewall_at_ = when;
      }
      Issue(i, when);
    };
    if (spec_.include_fsync && writes()) {
      Nanos call = host_.cpu().Run(t, psync_.submit);
      host_.engine().At(call, [this, i, record] {
        host_.Fsync(children_[i].file, spec_.direct, [this, record](Status st) {
          if (!st.ok() && status_.ok()) status_ = st;
          record(host_.cpu().Run(host_.engine().now(), psync_.complete));
        });
      });
      return;
    }
    record(t);
  }

  void Exit(size_t i, Nanos t) {
    Child& c = children_[i];
    if (c.exited) return;
    c.exited = true;
    end_ = Max(end_, t);
    ++exited_;
  }

  SimHost& host_;
  const IozoneSpec& spec_;
  Kind kind_;
  const fio::EngineModel& psync_;
  uint64_t recs_;
  std::vector<Child> children_;
  Nanos start_, end_;
  bool stonewall_ = false;
  Nanos stonewall_at_;
  size_t exited_ = 0;
  Status status_;
};

// iozone's sync(); sleep(2) between phases.
Status SyncAndSleep(SimHost& host) {
  bool done = false;
  host.Fsync(0, false, [&](Status) { done = true; });
  Watchdog watchdog(host.stack());
  RETURN_IF_ERROR(VirtualDriver(host.engine()).RunWatched([&] { return !done; }, watchdog));
  VirtualDriver(host.engine()).RunUntil(host.engine().now() + 2_s);
  return Status();
}

}  // namespace

IozoneRun::IozoneRun(SimHost& host, IozoneSpec spec) : host_(host), spec_(std::move(spec)) {}

Result<std::vector<PhaseResult>> IozoneRun::RunOnce(const std::function<void(Nanos)>& progress) {
  ExtentFs& fs = host_.fs();
  std::vector<uint32_t> files;
  bool has[3] = {false, false, false};
  for (int t : spec_.tests) has[t] = true;
  for (uint32_t i = 0; i < spec_.children; ++i) {
    std::string name = "iozone.DUMMY." + std::to_string(i);
    uint32_t id = fs.Lookup(name);
    if (!id) {
      if (!has[0]) {
        return Status::InvalidArgument("iozone: file " + name +
                                       " does not exist: the tests need -i 0 (write) first");
      }
      id = fs.Create(name);
    }
    files.push_back(id);
  }
  ++runs_;
  std::vector<PhaseResult> out;
  struct Step {
    int test;
    Kind kind;
    const char* name;
  };
  const Step kSteps[] = {{0, Kind::kWrite, "initial writers"},
                         {0, Kind::kRewrite, "rewriters"},
                         {1, Kind::kRead, "readers"},
                         {1, Kind::kReread, "re-readers"},
                         {2, Kind::kRandRead, "random readers"},
                         {2, Kind::kRandWrite, "random writers"}};
  for (const Step& s : kSteps) {
    if (!has[s.test]) continue;
    if (s.kind == Kind::kReread && spec_.keep_files) continue;  // iozone: "skip rereader"
    Phase phase(host_, spec_, s.kind, files, host_.options().seed ^ (runs_ << 8) ^ out.size());
    Status st = phase.Run(progress);
    if (!st.ok()) return st.WithContext(std::string("iozone ") + s.name);
    out.push_back(phase.Result(s.name));
    RETURN_IF_ERROR(SyncAndSleep(host_).WithContext("iozone sync"));
  }
  if (!spec_.keep_files) {
    for (uint32_t id : files) fs.Remove(id);
  }
  return out;
}

std::string IozoneHeader(const IozoneSpec& spec, const std::string& stack) {
  std::string s;
  char buf[256];
  s += "\tIozone: Performance Test of File I/O\n";
  s += "\t        (storlab sim: throughput mode in virtual time on " + stack + ")\n\n";
  if (spec.include_fsync) s += "\tInclude fsync in write timing\n";
  if (spec.sync_writes) s += "\tSYNC Mode. \n";
  std::snprintf(buf, sizeof buf, "\tRecord Size %llu kB\n",
                static_cast<unsigned long long>(spec.record_size / 1024));
  s += buf;
  std::snprintf(buf, sizeof buf, "\tFile size set to %llu kB\n",
                static_cast<unsigned long long>(spec.file_size / 1024));
  s += buf;
  if (spec.direct) s += "\tO_DIRECT feature enabled\n";
  if (spec.ops) s += "\tOPS Mode. Output is in operations per second.\n";
  if (spec.keep_files) s += "\tSetting no_unlink\n";
  s += "\tCommand line used: " + spec.command + "\n";
  s += spec.ops ? "\tOutput is in operations per second.\n" : "\tOutput is in kBytes/sec\n";
  const char* port = spec.threads ? "thread" : "process";
  std::snprintf(buf, sizeof buf, "\tThroughput test with %u %s%s\n", spec.children, port,
                spec.children > 1 ? "s" : "");
  s += buf;
  std::snprintf(buf, sizeof buf, "\tEach %s writes a %llu kByte file in %llu kByte records\n", port,
                static_cast<unsigned long long>(spec.file_size / 1024),
                static_cast<unsigned long long>(spec.record_size / 1024));
  s += buf;
  return s;
}

std::string IozonePhaseReport(const IozoneSpec& spec, const PhaseResult& p) {
  const char* unit = spec.ops ? "ops" : "kB";
  const char* port = spec.threads ? "thread" : "process";
  double total = 0, mn = 0, mx = 0, min_xfer = 0;
  for (const auto& c : p.children) {
    total += c.throughput;
    if (!mn || c.throughput < mn) mn = c.throughput;
    if (c.throughput > mx) mx = c.throughput;
    if (!min_xfer || c.actual < min_xfer) min_xfer = c.actual;
  }
  double avg = p.children.empty() ? 0 : total / static_cast<double>(p.children.size());
  unsigned n = static_cast<unsigned>(p.children.size());
  // iozone pads the first three phases' counts to two places and puts two
  // tabs after "readers".
  bool pad = p.name == "initial writers" || p.name == "rewriters" || p.name == "readers";
  const char* tabs = p.name == "readers" ? "\t\t" : "\t";
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "\n\tChildren see throughput for %*u %s %s= %10.2f %s/sec\n"
                "\tParent sees throughput for %*u %s %s= %10.2f %s/sec\n"
                "\tMin throughput per %s \t\t\t= %10.2f %s/sec \n"
                "\tMax throughput per %s \t\t\t= %10.2f %s/sec\n"
                "\tAvg throughput per %s \t\t\t= %10.2f %s/sec\n"
                "\tMin xfer \t\t\t\t\t= %10.2f %s\n",
                pad ? 2 : 1, n, p.name.c_str(), tabs, total, unit, pad ? 2 : 1, n, p.name.c_str(),
                tabs, p.parent_throughput, unit, port, mn, unit, port, mx, unit, port, avg, unit,
                min_xfer, unit);
  return buf;
}

}  // namespace storlab::iozone
