#include "workloads/power_cuts.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "sim/fd_io.h"
#include "sim/random.h"
#include "sim/trace.h"
#include "sim/virtual_driver.h"

namespace storlab {
namespace {

constexpr size_t kKeepViolations = 5;  // per cut, in full
// The check's reads (Oracle::VerifyOptions): every page a read's buffers
// touch in any layer is a page fault in the forked copy (10-15 us each on a
// virtual machine), so the copy reads in short runs, a few at a time, and
// reuses the buffers; its virtual time matters to no one.
constexpr uint64_t kCheckReadBytes = uint64_t{16} << 10;
constexpr int kCheckQueueDepth = 1;

// Nodes that break FLUSH or FUA themselves (every child keeps them).
std::vector<std::string> PromiseBreakers(const Stack& stack) {
  std::vector<std::string> out;
  for (const auto& n : stack.nodes()) {
    const Capabilities& c = n->caps();
    if (c.honors_flush && c.honors_fua) continue;
    bool children_keep = true;
    for (const Node* k : n->children()) {
      children_keep = children_keep && k->caps().honors_flush && k->caps().honors_fua;
    }
    if (children_keep) out.push_back(n->name());
  }
  return out;
}

// The copy's report: "R checked newest older read_errors violations", then
// one "V offset found what-length what acceptable..." line per violation kept.
// Built by appending (no stream: a stream's locale set-up wrote to pages
// the copy then had to copy).
std::string Encode(const OracleReport& r) {
  std::string o = "R";
  auto num = [&o](uint64_t v) { o += ' ' + std::to_string(v); };
  for (uint64_t v : {r.blocks_checked, r.blocks_newest, r.blocks_older, r.read_errors,
                     uint64_t{r.violations.size()}}) {
    num(v);
  }
  o += '\n';
  for (size_t i = 0; i < r.violations.size() && i < kKeepViolations; ++i) {
    const auto& v = r.violations[i];
    o += 'V';
    num(v.offset);
    num(v.found);
    num(v.what.size());
    o += ' ' + v.what;
    for (uint64_t h : v.acceptable) num(h);
    o += '\n';
  }
  return o;
}

bool Decode(const std::string& text, CutResult* r) {
  std::istringstream in(text);
  std::string tag;
  if (!(in >> tag) || tag != "R") return false;
  if (!(in >> r->blocks_checked >> r->blocks_newest >> r->blocks_older >> r->read_errors >>
        r->violations)) {
    return false;
  }
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::istringstream l(line);
    OracleViolation v{};
    size_t what_len = 0;
    if (!(l >> tag >> v.offset >> v.found >> what_len) || tag != "V") return false;
    l.get();
    v.what.resize(what_len);
    l.read(v.what.data(), static_cast<std::streamsize>(what_len));
    for (uint64_t h; l >> h;) v.acceptable.push_back(h);
    r->first.push_back(std::move(v));
  }
  return true;
}

}  // namespace

std::vector<Nanos> SeededCutTimes(uint64_t seed, size_t n, Nanos start, Nanos end) {
  Random rng(seed, "power_cuts");
  const uint64_t span = end > start ? static_cast<uint64_t>((end - start).count()) : 1;
  std::vector<Nanos> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i)
    out.push_back(start + Nanos(static_cast<int64_t>(rng.Uniform(span))));
  std::sort(out.begin(), out.end());
  return out;
}

std::string CutSummary::Paragraph() const {
  auto n = [](uint64_t v) { return std::to_string(v); };
  std::string s = "storlab: " + n(cuts.size()) + " power cut" + (cuts.size() == 1 ? "" : "s") +
                  ". After each the stack powered up with what its media held, and the oracle "
                  "read back every block written: " +
                  n(blocks_checked) + " block checks, " + n(durable_intact) +
                  " held their durable write or a newer one (" + n(lost_allowed) +
                  " an older acceptable one: acknowledged writes not yet durable were lost, as "
                  "allowed), " +
                  n(lost_unhonoured) + " lost flushed data the stack does not promise to keep";
  if (!unhonoured_by.empty()) {
    std::string names;
    for (const auto& x : unhonoured_by) names += (names.empty() ? "" : ", ") + x;
    s += " (" + names + " breaks FLUSH or FUA by design)";
  }
  s += ", " + n(violations) + " violations, " + n(read_errors) + " read errors";
  if (failed_checks) s += ", " + n(failed_checks) + " checks that failed";
  if (read_violations) {
    s += "; " + n(read_violations) + " reads of the jobs returned stale or corrupted data";
  }
  return s + ".\n";
}

PowerCuts::PowerCuts(Stack& stack, Oracle& oracle, int parallel, Nanos origin)
    : stack_(stack), oracle_(oracle), parallel_(std::max(1, parallel)) {
  summary_.origin = origin;
  summary_.unhonoured_by = PromiseBreakers(stack);
}

PowerCuts::~PowerCuts() { (void)Finish(); }

void PowerCuts::RunChild(int fd) {
  // The copy writes nothing to the trace: the original wrote the cut's line
  // and goes on with the run.
  if (stack_.tracer()) stack_.SetTracer(nullptr);  // else a copied page per node for nothing
  stack_.PowerCut();
  bool finished = false;
  OracleReport report;
  oracle_.Verify(
      [&](OracleReport r) {
        report = std::move(r);
        finished = true;
      },
      {.rebaseline = false,
       .read_flags = kDirect,
       .max_read_bytes = kCheckReadBytes,
       .queue_depth = kCheckQueueDepth});
  VirtualDriver(stack_.engine()).RunWhile([&] { return !finished; });
  int rc = finished && WriteFull(fd, Encode(report)) ? 0 : 3;
  ::_exit(rc);
}

Status PowerCuts::CutHere() {
  while (children_.size() >= static_cast<size_t>(parallel_)) RETURN_IF_ERROR(Reap(0));
  int fds[2];
  if (::pipe(fds) != 0)
    return Status::IoError(std::string("power cut: pipe: ") + std::strerror(errno));
  // The trace's line for the cut is the original's (the copy detaches).
  if (Tracer* t = stack_.tracer()) t->PowerCut(stack_.engine().now());
  std::fflush(nullptr);  // the copy never flushes what the original buffered
  const size_t index = summary_.cuts.size();
  summary_.cuts.emplace_back();
  summary_.cuts.back().at = stack_.engine().now();
  for (const auto& n : stack_.nodes()) {
    if (const uint64_t b = n->volatile_bytes()) {
      summary_.cuts.back().volatile_holders.emplace_back(n->name(), b);
    }
  }
  // The promise breakers now (a fault may have made one since the start).
  for (std::string& b : PromiseBreakers(stack_)) {
    summary_.cuts.back().promise_broken = true;
    if (std::find(summary_.unhonoured_by.begin(), summary_.unhonoured_by.end(), b) ==
        summary_.unhonoured_by.end()) {
      summary_.unhonoured_by.push_back(std::move(b));
    }
  }
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return Status::IoError(std::string("power cut: fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fds[0]);
    RunChild(fds[1]);
  }
  ::close(fds[1]);
  children_.push_back({pid, fds[0], index});
  return Status();
}

Status PowerCuts::Reap(size_t k) {
  Child c = children_[k];
  children_.erase(children_.begin() + static_cast<std::ptrdiff_t>(k));
  const std::string text = ReadToEnd(c.fd);
  ::close(c.fd);
  int wstatus = 0;
  while (::waitpid(c.pid, &wstatus, 0) < 0) {
    if (errno != EINTR)
      return Status::IoError(std::string("power cut: waitpid: ") + std::strerror(errno));
  }
  CutResult& r = summary_.cuts[c.index];
  if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0 || !Decode(text, &r)) {
    r.failure = WIFSIGNALED(wstatus)
                    ? "the check was killed by signal " + std::to_string(WTERMSIG(wstatus))
                    : "the check did not finish (exit status " +
                          std::to_string(WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1) + ")";
    ++summary_.failed_checks;
    return Status();
  }
  summary_.blocks_checked += r.blocks_checked;
  summary_.durable_intact += r.blocks_newest + r.blocks_older;
  summary_.lost_allowed += r.blocks_older;
  summary_.read_errors += r.read_errors;
  if (!r.promise_broken) {
    summary_.violations += r.violations;
  } else {
    summary_.lost_unhonoured += r.violations;
  }
  return Status();
}

Status PowerCuts::Finish() {
  while (!children_.empty()) RETURN_IF_ERROR(Reap(0));
  const std::vector<OracleViolation> reads = oracle_.read_violations();
  summary_.read_violations = reads.size();
  summary_.first_read_violations.assign(reads.begin(),
                                        reads.begin() + std::min<size_t>(reads.size(), 20));
  return Status();
}

}  // namespace storlab
