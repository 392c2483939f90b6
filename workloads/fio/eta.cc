// fio 3.33's eta.c in simulated time (see eta.h).
#include "workloads/fio/eta.h"

#include <algorithm>
#include <climits>
#include <cstdio>

#include "workloads/fio/fio_units.h"

namespace storlab::fio {
namespace {

using RunState = JobRunner::RunState;

// mtime_since(): whole milliseconds.
uint64_t Msec(Nanos d) { return d > Nanos(0) ? static_cast<uint64_t>(d.count() / 1000000) : 0; }
uint64_t Sec(Nanos d) { return static_cast<uint64_t>(d.count() / 1000000000); }

// check_str_update(): the job's character in the run string.
char StateChar(const JobRunner& r) {
  const JobSpec& s = r.spec();
  switch (r.run_state()) {
    case RunState::kNotCreated:
      return 'P';
    case RunState::kRamp:
      return '/';
    case RunState::kVerifying:
      return 'V';
    case RunState::kFsyncing:
      return 'F';
    case RunState::kReaped:
      return r.failed() ? 'X' : '_';
    case RunState::kRunning:
      break;
  }
  if (s.do_read && s.do_write) {
    if (s.rwmixread == 100) return s.random ? 'r' : 'R';
    if (s.rwmixread == 0) return s.random ? 'w' : 'W';
    return s.random ? 'm' : 'M';
  }
  if (s.do_read) return s.random ? 'r' : 'R';
  if (s.do_write) return s.random ? 'w' : 'W';
  return s.random ? 'd' : 'D';
}

// update_condensed_str(): "W(1),R(2)".
std::string Condensed(const std::string& chars) {
  std::string out;
  for (size_t i = 0; i < chars.size();) {
    size_t j = i;
    while (j < chars.size() && chars[j] == chars[i]) ++j;
    if (!out.empty()) out += ',';
    out += chars[i];
    out += "(" + std::to_string(j - i) + ")";
    i = j;
  }
  return out;
}

bool Running(RunState s) {
  return s == RunState::kRunning || s == RunState::kVerifying || s == RunState::kFsyncing;
}

}  // namespace

struct EtaLine::Status {
  uint32_t nr_running = 0, nr_ramp = 0, nr_pending = 0, nr_setting_up = 0;
  uint64_t m_rate[3] = {0, 0, 0}, t_rate[3] = {0, 0, 0}, rate[3] = {0, 0, 0};
  uint32_t m_iops[3] = {0, 0, 0}, t_iops[3] = {0, 0, 0}, iops[3] = {0, 0, 0};
  uint64_t elapsed_sec = 0, eta_sec = 0;
  uint32_t files_open = 0;
  std::string run_str;
};

std::string EtaToStr(uint64_t eta_sec) {
  if (eta_sec == static_cast<uint64_t>(-1)) return "--";
  char buf[96];
  const auto s = static_cast<unsigned>(eta_sec % 60);
  eta_sec /= 60;
  const auto m = static_cast<unsigned>(eta_sec % 60);
  eta_sec /= 60;
  const auto h = static_cast<unsigned>(eta_sec % 24);
  const auto d = static_cast<unsigned>(eta_sec / 24);
  std::string out;
  if (d) {
    std::snprintf(buf, sizeof buf, "%02ud:", d);
    out += buf;
  }
  if (h || d) {
    std::snprintf(buf, sizeof buf, "%02uh:", h);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, "%02um:%02us", m, s);
  return out + buf;
}

EtaLine::EtaLine(const FioRun& run, Nanos genesis, Nanos newline_every)
    : run_(run),
      genesis_(genesis),
      newline_every_(newline_every),
      run_chars_(run.runners().size(), 'P'),  // print_status_init()
      disp_prev_(genesis) {}

// thread_eta(): a best effort at the seconds a job still needs.
uint64_t EtaLine::ThreadEta(const JobRunner& r, Nanos now) const {
  const JobSpec& s = r.spec();
  const JobOptions& o = s.opts;
  const uint64_t elapsed = (Msec(now - r.extras().epoch) + 999) / 1000;
  const uint64_t timeout = Sec(o.runtime);
  uint64_t bytes_total = r.total_io_size();
  if (s.zones.size && s.zones.skip && bytes_total && !o.io_size) {
    const uint64_t zone_bytes = s.zones.size + s.zones.skip;
    uint64_t nr_zones = (bytes_total + zone_bytes - 1) / zone_bytes;
    if (bytes_total < nr_zones * s.zones.skip) nr_zones = bytes_total / zone_bytes;
    bytes_total -= nr_zones * s.zones.skip;
  }
  // Writing and verifying afterwards: the verify pass reads them again.
  if (o.do_verify && s.verify != VerifyKind::kNone && s.do_write) {
    if (s.do_read) {
      const uint64_t rwmix_write = static_cast<uint64_t>(100 - s.rwmixread);
      const uint64_t perc = rwmix_write ? rwmix_write : 50;
      bytes_total += bytes_total * perc / 100;
    } else {
      bytes_total <<= 1;
    }
  }
  const RunState state = r.run_state();
  if (state == RunState::kRunning || state == RunState::kVerifying) {
    const uint64_t bytes_done = r.bytes_done(0) + r.bytes_done(1) + r.bytes_done(2);
    double perc = 0.0;
    if (bytes_total) perc = std::min(1.0, static_cast<double>(bytes_done) / bytes_total);
    if (o.time_based) {
      if (timeout) {
        perc = std::min(perc, static_cast<double>(elapsed) / static_cast<double>(timeout));
      } else {
        perc = 0.0;
      }
    }
    uint64_t eta_sec = 0;
    if (perc == 0.0) {
      eta_sec = timeout;
    } else {
      eta_sec = static_cast<uint64_t>(static_cast<double>(elapsed) * (1.0 / perc)) - elapsed;
    }
    // backend.c reap_threads(): done_secs, the seconds of the jobs reaped.
    uint64_t done_secs = 0;
    for (const auto& j : run_.runners()) {
      if (j->run_state() == RunState::kReaped) {
        done_secs += Msec(j->extras().end - j->extras().epoch) / 1000;
      }
    }
    if (o.runtime > Nanos(0) && eta_sec > timeout + done_secs - elapsed) {
      eta_sec = timeout + done_secs - elapsed;
    }
    return eta_sec;
  }
  if (state == RunState::kNotCreated || state == RunState::kRamp) {
    // Only a guess: the full timeout if given, else the rate.
    uint64_t t_eta = 0, r_eta = 0;
    if (o.runtime > Nanos(0)) {
      // td->ramp_time_over is false until the ramp ends.
      const Nanos t = o.runtime + o.startdelay + o.ramp_time;
      const uint64_t usec = static_cast<uint64_t>(t.count() / 1000);
      t_eta = usec / 1000000;
      if (state == RunState::kRamp) {
        const uint64_t ramp_left = (Msec(now - r.extras().epoch) + 999) / 1000;
        if (ramp_left <= t_eta) t_eta -= ramp_left;
      }
    }
    uint64_t rate_bytes = 0;
    if (s.do_read) rate_bytes += o.rate[0];
    if (s.do_write) rate_bytes += o.rate[1];
    if (rate_bytes) r_eta = bytes_total / rate_bytes + Sec(o.startdelay);
    if (r_eta && t_eta) return std::min(r_eta, t_eta);
    return r_eta ? r_eta : t_eta;
  }
  return 0;  // done, or in its end_fsync
}

// calc_thread_status(): false when fio prints nothing.
bool EtaLine::Calc(Nanos now, Status* je) {
  uint64_t io_bytes[2] = {0, 0}, io_iops[2] = {0, 0};
  if (!disp_bytes_[0] && !disp_bytes_[1]) disp_prev_ = genesis_;  // fill_start_time()
  je->elapsed_sec = (Msec(now - genesis_) + 999) / 1000;
  bool exitall = false;
  const auto& runners = run_.runners();
  std::vector<uint64_t> eta_secs(runners.size());
  for (size_t i = 0; i < runners.size(); ++i) {
    const JobRunner& r = *runners[i];
    const JobOptions& o = r.spec().opts;
    exitall |= o.exitall;
    const RunState state = r.run_state();
    if (Running(state)) {
      ++je->nr_running;
      for (int d = 0; d < 2; ++d) {
        if (!(d == 0 ? r.spec().do_read : r.spec().do_write)) continue;
        je->t_rate[d] += o.rate[d];
        je->t_iops[d] += static_cast<uint32_t>(o.rate_iops[d]);
        je->m_rate[d] += o.rate_min[d];
        je->m_iops[d] += static_cast<uint32_t>(o.rate_iops_min[d]);
      }
      je->files_open += static_cast<uint32_t>(r.files_open());
    } else if (state == RunState::kRamp) {
      ++je->nr_running;
      ++je->nr_ramp;
    } else if (state == RunState::kNotCreated) {
      ++je->nr_pending;
    }
    eta_secs[i] = je->elapsed_sec >= 3 ? ThreadEta(r, now) : INT_MAX;
    run_chars_[i] = StateChar(r);
    // runstate > TD_SETTING_UP: not before its start, not in its ramp.
    if (state != RunState::kNotCreated && state != RunState::kRamp) {
      for (int d = 0; d < 2; ++d) {
        io_bytes[d] += r.bytes_done(d);
        io_iops[d] += r.ios_done(d);
      }
    }
  }
  if (exitall) {  // exitall_on_terminate: the first job to end ends all
    je->eta_sec = INT_MAX;
    for (uint64_t e : eta_secs) je->eta_sec = std::min(je->eta_sec, e);
  } else {
    uint64_t eta_stone = 0;
    for (size_t i = 0; i < runners.size(); ++i) {
      if (runners[i]->run_state() == RunState::kNotCreated && runners[i]->spec().opts.stonewall) {
        eta_stone += eta_secs[i];
      } else {
        je->eta_sec = std::max(je->eta_sec, eta_secs[i]);
      }
    }
    je->eta_sec += eta_stone;
  }
  // calc_rate(), calc_iops(): KiB/s and IOPS since the previous line.
  const uint64_t mtime = Msec(now - disp_prev_);
  for (int d = 0; d < 2; ++d) {
    const uint64_t diff = io_bytes[d] - disp_bytes_[d];
    je->rate[d] = mtime ? ((1000 * diff) / mtime) / 1024 : 0;
    disp_bytes_[d] = io_bytes[d];
    const uint64_t diff_ios = io_iops[d] - disp_ios_[d];
    je->iops[d] = mtime ? static_cast<uint32_t>((diff_ios * 1000) / mtime) : 0;
    disp_ios_[d] = io_iops[d];
  }
  disp_prev_ = now;
  if (!je->nr_running && !je->nr_pending) return false;
  je->run_str = Condensed(run_chars_);
  return true;
}

// display_thread_status().
std::string EtaLine::Display(Nanos now, const Status& je) {
  std::string out;
  std::string eta_str;
  double perc = 0.0;
  if (je.eta_sec != INT_MAX && je.elapsed_sec) {
    perc = static_cast<double>(je.elapsed_sec) / static_cast<double>(je.elapsed_sec + je.eta_sec);
    eta_str = EtaToStr(je.eta_sec);
  }
  if (newline_pending_) {
    newline_pending_ = false;
    linelen_last_ = 0;
    out += "\n";
  }
  char buf[128];
  std::snprintf(buf, sizeof buf, "Jobs: %u (f=%u)", je.nr_running, je.files_open);
  out += buf;
  const uint64_t m_rate = je.m_rate[0] + je.m_rate[1] + je.m_rate[2];
  const uint64_t t_rate = je.t_rate[0] + je.t_rate[1] + je.t_rate[2];
  const uint32_t m_iops = je.m_iops[0] + je.m_iops[1] + je.m_iops[2];
  const uint32_t t_iops = je.t_iops[0] + je.t_iops[1] + je.t_iops[2];
  if (m_rate || t_rate) {  // rate limits, if any
    out += ", " + Num2Str(m_rate, 4, 1, true, "B/s") + "-" + Num2Str(t_rate, 4, 1, true, "B/s");
  } else if (m_iops || t_iops) {
    std::snprintf(buf, sizeof buf, ", %d-%d IOPS", static_cast<int>(m_iops),
                  static_cast<int>(t_iops));
    out += buf;
  }
  // Current run string, % done, bandwidth, iops, eta.
  if (je.eta_sec != INT_MAX && je.nr_running) {
    std::string perc_str = "-.-%";
    if (!((!je.eta_sec && !eta_good_) || je.nr_ramp == je.nr_running ||
          je.eta_sec == static_cast<uint64_t>(-1))) {
      double mult = 100.0;
      if (je.nr_setting_up && je.nr_running) {
        mult *= (1.0 - static_cast<double>(je.nr_setting_up) / je.nr_running);
      }
      eta_good_ = true;
      std::snprintf(buf, sizeof buf, "%3.1f%%", perc * mult);
      perc_str = buf;
    }
    out += ": [" + je.run_str + "][" + perc_str + "]";
    // gen_eta_str(): the directions with a rate or IOPS.
    static constexpr char kDir[3] = {'r', 'w', 't'};
    std::string rates, iops;
    for (int d = 0; d < 3; ++d) {
      if (!je.rate[d] && !je.iops[d]) continue;
      if (!rates.empty()) rates += ",", iops += ",";
      rates += std::string(1, kDir[d]) + "=" + Num2Str(je.rate[d], 4, 1024, true, "B/s");
      iops += std::string(1, kDir[d]) + "=" + Num2Str(je.iops[d], 4, 1, false, "");
    }
    if (!rates.empty()) out += "[" + rates + "][" + iops + " IOPS]";
    out += "[eta " + eta_str + "]";
    const size_t linelen = out.size();
    if (linelen < linelen_last_) out += std::string(linelen_last_ - linelen, ' ');
    linelen_last_ = linelen;
  }
  out += "\r";
  if (!newline_init_) {
    newline_mark_ = now;
    newline_init_ = true;
  } else if (newline_every_ > Nanos(0) && Msec(now - newline_mark_) > Msec(newline_every_)) {
    newline_mark_ = now;
    newline_pending_ = true;
  }
  return out;
}

std::string EtaLine::At(Nanos now) {
  Status je;
  if (!Calc(now, &je)) return "";
  return Display(now, je);
}

}  // namespace storlab::fio
