#include "workloads/fio/cmdprio.h"

#include <algorithm>
#include <charconv>
#include <string_view>

#include "sim/quoted.h"
#include "workloads/fio/fio_units.h"

namespace storlab::fio {
namespace {

constexpr uint32_t kClassRt = 1, kClassBe = 2, kMaxClass = 3, kMaxLevel = 7;
constexpr size_t kBssplitMax = 64;  // thread_options.h BSSPLIT_MAX

// os/os-linux.h ioprio_value(): no class is BE.
uint32_t IoprioValue(uint32_t cls, uint32_t level) {
  return ((cls ? cls : kClassBe) << 13) | level;
}

bool ParseUint(std::string_view s, uint32_t* out) {
  const char* end = s.data() + s.size();
  auto r = std::from_chars(s.data(), end, *out);
  return r.ec == std::errc() && r.ptr == end;
}

// "20" (reads and writes) or "20,30" (reads, writes), each in [lo, hi]:
// a FIO_OPT_INT with off1 and off2.
Status ParsePair(std::string_view v, uint32_t lo, uint32_t hi, uint32_t out[2]) {
  const size_t comma = v.find(',');
  std::string_view parts[2] = {v.substr(0, comma),
                               comma == std::string_view::npos ? v : v.substr(comma + 1)};
  for (int d = 0; d < 2; ++d) {
    if (!ParseUint(parts[d], &out[d]) || out[d] < lo || out[d] > hi) {
      return Status::InvalidArgument("not a number in [" + std::to_string(lo) + ", " +
                                     std::to_string(hi) + "] (or two, for reads and writes)");
    }
  }
  return Status();
}

}  // namespace

Result<CmdPrio> CmdPrio::Make(const JobOptions& o, bool reads, bool writes,
                              const std::string& where) {
  CmdPrio c;
  // backend.c: ioprio_set() and td->ioprio only when prio= or prioclass= is given.
  if (o.prio >= 0 || o.prioclass >= 0) {
    c.job_prio_ = IoprioValue(static_cast<uint32_t>(std::max<int64_t>(o.prioclass, 0)),
                              static_cast<uint32_t>(std::max<int64_t>(o.prio, 0)));
  }
  uint32_t perc[2] = {0, 0}, cls[2] = {0, 0}, level[2] = {0, 0};
  // The values were checked when parsed (CheckPercentage & co.).
  if (!o.cmdprio_percentage.empty()) (void)ParsePair(o.cmdprio_percentage, 0, 100, perc);
  if (!o.cmdprio_class.empty()) (void)ParsePair(o.cmdprio_class, 1, kMaxClass, cls);
  if (!o.cmdprio.empty()) (void)ParsePair(o.cmdprio, 0, kMaxLevel, level);
  // fio_cmdprio_init(): one mode or the other.
  const bool has_perc = perc[0] || perc[1];
  if (has_perc && !o.cmdprio_bssplit.empty()) {
    return Status::InvalidArgument(where + ": job " + Quoted(o.name) +
                                   ": cmdprio_percentage and cmdprio_bssplit options are "
                                   "mutually exclusive");
  }
  // fio_cmdprio_parse_and_gen(): the class is RT unless given.
  for (auto& k : cls) k = k ? k : kClassRt;
  const bool on[2] = {reads, writes};
  if (has_perc) {
    c.mode_ = Mode::kPercentage;
    for (int d = 0; d < 2; ++d) {
      if (on[d]) c.perc_[d] = {.perc = perc[d], .prio = IoprioValue(cls[d], level[d])};
    }
    return c;
  }
  if (o.cmdprio_bssplit.empty()) return c;
  c.mode_ = Mode::kBssplit;
  Status st = ParseBssplit(o.cmdprio_bssplit, cls, level, c.bssplit_);
  if (!st.ok()) {
    return Status::InvalidArgument(
        where + ": option 'cmdprio_bssplit': " + Quoted(o.cmdprio_bssplit) + ": " + st.message());
  }
  for (int d = 0; d < 2; ++d) {
    if (!on[d]) c.bssplit_[d].clear();
  }
  return c;
}

// str_split_parse(): "read,write[,trim]", or one list for every direction;
// split_parse_prio_ddir() and parse_cmdprio_bssplit_entry(): entries
// bs/perc[/class/level] separated by ':', zero percentages dropped, sorted
// by size, the class and level from the entry or cmdprio_class/cmdprio;
// fio_cmdprio_fill_bsprio(): at most 100 % per size.
Status CmdPrio::ParseBssplit(std::string_view all, const uint32_t cls[2], const uint32_t level[2],
                             std::vector<BsPrio> out[2]) {
  const size_t comma = all.find(',');
  std::string_view lists[2] = {all.substr(0, comma),
                               comma == std::string_view::npos ? all : all.substr(comma + 1)};
  if (comma != std::string_view::npos) lists[1] = lists[1].substr(0, lists[1].find(','));
  for (int d = 0; d < 2; ++d) {
    struct Entry {
      uint64_t bs;
      uint32_t perc, prio;
    };
    std::vector<Entry> entries;
    size_t count = 0;
    std::string_view rest = lists[d];
    while (!rest.empty()) {
      const size_t colon = rest.find(':');
      std::string_view item = rest.substr(0, colon);
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
      if (item.empty()) break;
      if (++count > kBssplitMax) return Status::InvalidArgument("too many cmdprio_bssplit entries");
      std::string_view f[4];
      int nf = 0;
      for (size_t at = 0; nf < 4;) {
        const size_t slash = item.find('/', at);
        f[nf++] = item.substr(at, slash == std::string_view::npos ? slash : slash - at);
        if (slash == std::string_view::npos) break;
        at = slash + 1;
      }
      auto bs = ParseFioSize(f[0]);
      if (!bs.ok()) {
        return Status::InvalidArgument("split conversion failed for " + Quoted(f[0]));
      }
      uint32_t v[3] = {0, 0, 0};
      int matches = 1;
      while (matches < nf && ParseUint(f[matches], &v[matches - 1])) ++matches;
      if (matches == 3) {
        return Status::InvalidArgument("invalid cmdprio_bssplit format in " + Quoted(item) +
                                       " (bs/percentage or bs/percentage/class/level)");
      }
      Entry e{.bs = *bs, .perc = std::min(v[0], 100u), .prio = IoprioValue(cls[d], level[d])};
      if (matches == 4) e.prio = IoprioValue(std::min(v[1], kMaxClass), std::min(v[2], kMaxLevel));
      if (e.perc) entries.push_back(e);
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry& a, const Entry& b) { return a.bs < b.bs; });
    for (const Entry& e : entries) {
      if (out[d].empty() || out[d].back().bs != e.bs)
        out[d].push_back({.bs = e.bs, .tot_perc = 0, .prios = {}});
      BsPrio& b = out[d].back();
      b.tot_perc += e.perc;
      if (b.tot_perc > 100) {
        return Status::InvalidArgument(
            "cmdprio_bssplit total percentage for bs: " + std::to_string(e.bs) + " exceeds 100");
      }
      b.prios.push_back({.perc = e.perc, .prio = e.prio});
    }
  }
  return Status();
}

Status CmdPrio::CheckPercentage(std::string_view v) {
  uint32_t out[2];
  return ParsePair(v, 0, 100, out);
}

Status CmdPrio::CheckClass(std::string_view v) {
  uint32_t out[2];
  return ParsePair(v, 1, kMaxClass, out);
}

Status CmdPrio::CheckLevel(std::string_view v) {
  uint32_t out[2];
  return ParsePair(v, 0, kMaxLevel, out);
}

Status CmdPrio::CheckBssplit(std::string_view v) {
  const uint32_t cls[2] = {kClassRt, kClassRt}, level[2] = {0, 0};
  std::vector<BsPrio> out[2];
  return ParseBssplit(v, cls, level, out);
}

uint32_t CmdPrio::Pick(int dir, uint64_t length, Taus88& rng) const {
  if (mode_ == Mode::kNone || dir > 1) return job_prio_;
  // fio_cmdprio_percentage(): the share for this direction (and size).
  const BsPrio* bs = nullptr;
  uint32_t p = 0;
  if (mode_ == Mode::kPercentage) {
    p = perc_[dir].perc;
  } else {
    for (const BsPrio& b : bssplit_[dir]) {
      if (b.bs == length) {
        bs = &b;
        p = b.tot_perc;
        break;
      }
    }
  }
  if (!p) return job_prio_;
  // rand_between(&td->prio_state, 0, 99)
  const auto r = static_cast<uint32_t>((static_cast<uint64_t>(rng.Next()) * 100) >> 32);
  if (r >= p) return job_prio_;
  if (!bs) return perc_[dir].prio;
  uint32_t sum = 0;
  for (const Prio& q : bs->prios) {
    sum += q.perc;
    if (r < sum) return q.prio;
  }
  return job_prio_;
}

std::vector<uint32_t> CmdPrio::StatPrios(int dir) const {
  std::vector<uint32_t> out;
  if (dir > 1) return out;
  auto add = [&](uint32_t prio) {
    if (std::find(out.begin(), out.end(), prio) == out.end()) out.push_back(prio);
  };
  if (mode_ == Mode::kPercentage && perc_[dir].perc) {
    add(job_prio_);
    add(perc_[dir].prio);
  } else if (mode_ == Mode::kBssplit && !bssplit_[dir].empty()) {
    add(job_prio_);
    for (const BsPrio& b : bssplit_[dir]) {
      for (const Prio& q : b.prios) add(q.prio);
    }
  }
  return out;
}

}  // namespace storlab::fio
