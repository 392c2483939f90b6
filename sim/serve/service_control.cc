// The control commands (control.h) as the service runs them: parsed on the
// caller's thread, run on the engine's thread between requests, answered in
// one line. A bad command is answered "error: ..." and changes nothing.
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <utility>

#include "sim/quoted.h"
#include "sim/serve/node_commands.h"
#include "sim/serve/service.h"

namespace storlab {
namespace {

std::string VerifyLine(const std::string& name, const OracleReport& r, size_t read_violations) {
  std::string s = name + ": " + std::to_string(r.blocks_checked) + " blocks checked, " +
                  std::to_string(r.blocks_newest) + " hold the newest write, " +
                  std::to_string(r.blocks_older) +
                  " an older one (acknowledged, not yet durable: lost, as allowed), " +
                  std::to_string(r.violations.size()) + " violations";
  if (r.read_errors) s += ", " + std::to_string(r.read_errors) + " read errors";
  if (read_violations) s += ", " + std::to_string(read_violations) + " stale reads seen";
  return s;
}

}  // namespace

std::string Service::Control(std::string_view line) {
  auto cmd = ParseControl(line);
  if (!cmd.ok()) return "error: " + cmd.status().message();
  using K = ControlCommand::Kind;
  if (cmd->kind == K::kNone) return "ok: no command";
  if (cmd->kind == K::kHelp) return ControlHelp();
  if (!accepting_.load()) return "error: the service is not running";
  if (cmd->kind == K::kStats) {
    nlohmann::ordered_json j;
    Status st = driver_.Call([&] { j = StatsOnEngine(); });
    if (!st.ok()) return "error: stats: " + st.message();
    if (!options_.stats_path.empty()) {
      Status ws = WriteStats();
      if (!ws.ok()) return "error: stats: " + ws.message();
    }
    return j.dump();
  }
  struct Answer {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::string text;
  };
  auto a = std::make_shared<Answer>();
  Status st = driver_.Post([this, c = *cmd, a] {
    RunCommand(c, [a](std::string text) {
      std::lock_guard<std::mutex> l(a->m);
      a->text = std::move(text);
      a->done = true;
      a->cv.notify_all();
    });
  });
  if (!st.ok()) return "error: " + st.message();
  std::unique_lock<std::mutex> l(a->m);
  a->cv.wait(l, [&] { return a->done; });
  return a->text;
}

void Service::RunCommand(const ControlCommand& cmd, Callback<void(std::string)> answer) {
  using K = ControlCommand::Kind;
  switch (cmd.kind) {
    case K::kPowerCut:
      return PowerCutNow(std::move(answer));
    case K::kFlush:
      return FlushAll(std::move(answer));
    case K::kFail:
    case K::kReplace:
    case K::kDetach:
    case K::kAttach:
    case K::kDelay:
    case K::kMediaError:
    case K::kCorrupt:
    case K::kIgnoreFua: {
      auto r = RunNodeCommand(*loaded_.stack, cmd);
      return answer(r.ok() ? std::string(cmd.verb()) + ": " + *r
                           : std::string("error: ") + cmd.verb() + ": " + r.status().message());
    }
    case K::kResetStats:
      ResetStatsOnEngine();
      return answer("reset-stats: ok");
    case K::kNone:
    case K::kStats:
    case K::kHelp:
      break;
  }
  answer("error: internal: command not run on the engine");
}

void Service::ScheduleFaults() {
  const Nanos t0 = engine_.now();
  for (const FaultLine& f : scheduled_) {
    engine_.After(f.at, [this, &f, t0] {
      auto r = RunNodeCommand(*loaded_.stack, f.cmd);
      const std::string answer = r.ok() ? *r : "error: " + r.status().message();
      std::fprintf(stderr, "storlab: at %s: %s: %s\n", FaultTime(engine_.now() - t0).c_str(),
                   f.command.c_str(), answer.c_str());
    });
  }
}

void Service::PowerCutNow(Callback<void(std::string)> answer) {
  ++power_cuts_;
  const size_t aborted = loaded_.stack->PowerCut();
  aborted_ += aborted;
  // The stack powers up with what its media hold; each oracle reads its
  // device back and checks it, in virtual time (a check of a big disk would
  // otherwise take minutes of wall time while clients wait).
  auto pending = std::make_shared<int>(0);
  for (size_t i = 0; i < exports_.size(); ++i) {
    if (exports_[i].oracle == nullptr) continue;
    ++*pending;
    exports_[i].oracle->Verify([this, i, pending](OracleReport r) {
      last_verify_[i] = std::move(r);
      --*pending;
    });
  }
  driver_.RunVirtualWhile([&] { return *pending > 0; });
  std::string s = "power-cut: " + std::to_string(aborted) +
                  " requests in flight answered with EIO; the stack powered up with what its "
                  "media held";
  if (*pending > 0) s += "; the oracle's check did not finish";
  for (size_t i = 0; i < exports_.size(); ++i) {
    if (exports_[i].oracle == nullptr) continue;
    s += "; " + VerifyLine(exports_[i].info.name, last_verify_[i],
                           exports_[i].oracle->read_violation_count());
  }
  if (exports_.empty() || exports_[0].oracle == nullptr) {
    s += options_.store.kind == DataMode::Kind::kNone ? " (no oracle: the store keeps no data)"
                                                      : " (no oracle: it was turned off)";
  }
  answer(s);
}

void Service::FlushAll(Callback<void(std::string)> answer) {
  struct State {
    size_t pending = 0, total = 0;
    std::string errors;
    Callback<void(std::string)> answer;
  };
  auto st = std::make_shared<State>();
  st->pending = st->total = exports_.size();
  st->answer = std::move(answer);
  for (auto& e : exports_) {
    auto flushed = [st, name = e.info.name](Status s) {
      if (!s.ok()) st->errors += (st->errors.empty() ? "" : "; ") + name + ": " + s.ToString();
      if (--st->pending > 0) return;
      st->answer(st->errors.empty()
                     ? "flush: ok (" + std::to_string(st->total) + " exports flushed)"
                     : "error: flush: " + st->errors);
    };
    e.port->Submit(Request{.op = Op::kFlush, .done = std::move(flushed)});
  }
}

void Service::ResetStatsOnEngine() {
  loaded_.stack->ResetStats();
  driver_.ResetLateness();
  comp_.Reset();
  {
    std::lock_guard<std::mutex> l(hand_back_mu_);
    hand_back_.Reset();
  }
  submitted_ = completed_ = refused_ = 0;
  aborted_ = 0;
}

}  // namespace storlab
