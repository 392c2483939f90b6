// fio's iolog text formats, versions 2 and 3 (iolog_read.h), read as
// iolog.c read_iolog() does; blktrace files go to blktrace_read.cc.
#include "workloads/fio/iolog_read.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "sim/quoted.h"

namespace storlab::fio {
namespace {

constexpr std::string_view kVer2 = "fio version 2 iolog";
constexpr std::string_view kVer3 = "fio version 3 iolog";

std::vector<std::string_view> Words(std::string_view line) {
  std::vector<std::string_view> w;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) w.push_back(line.substr(start, i - start));
  }
  return w;
}

bool ToU64(std::string_view s, uint64_t* v) {
  if (s.empty() || s.size() > 20) return false;
  uint64_t x = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    const auto d = static_cast<uint64_t>(c - '0');
    if (x > (UINT64_MAX - d) / 10) return false;
    x = x * 10 + d;
  }
  *v = x;
  return true;
}

int FindFile(const ReplayTrace& t, std::string_view name) {
  for (size_t i = 0; i < t.files.size(); ++i) {
    if (t.files[i] == name) return static_cast<int>(i);
  }
  return -1;
}

// One line of the log after the version line; fio's read_iolog() loop body.
Status ParseLine(std::string_view line, uint32_t lineno, const JobOptions& o, uint64_t* last_ttime,
                 ReplayTrace* t) {
  std::vector<std::string_view> w = Words(line);
  if (w.empty()) return Status();  // fio logs "bad iolog" and goes on
  // A second run's write_iolog appends to the file: its version line is
  // skipped (fio logs it as a bad line) and its adds name known files.
  if (line.substr(0, kVer2.size()) == kVer2 || line.substr(0, kVer3.size()) == kVer3) {
    return Status();
  }
  const std::string where = t->path + ":" + std::to_string(lineno);
  auto bad = [&](const std::string& why) {
    return Status::InvalidArgument(where + ": " + why + ": " + Quoted(std::string(line)));
  };
  ReplayEntry e;
  e.where = lineno;
  size_t first = 0;
  if (t->version == 3) {
    uint64_t ttime = 0;
    if (!ToU64(w[0], &ttime)) return bad("bad iolog3 timestamp");
    e.delay_us = DelaySince(last_ttime, ttime, o);
    *last_ttime = ttime;
    first = 1;
  }
  const size_t n = w.size() - first;
  if (n != 2 && n != 4) return bad("bad iolog" + std::to_string(t->version) + " entry");
  const std::string_view act = w[first + 1];
  const std::string fname = o.replay_redirect.empty() ? std::string(w[first]) : o.replay_redirect;
  if (n == 2) {
    e.kind = ReplayEntry::kFileAction;
    int f = FindFile(*t, fname);
    if (act == "add") {
      // A re-add of a file (with replay_redirect: of the one file) is ignored.
      if (f < 0) {
        t->files.push_back(fname);
        t->extent.push_back(0);
        t->extent_where.push_back(0);
        f = static_cast<int>(t->files.size() - 1);
      }
    } else if (act != "open" && act != "close") {
      return bad("bad iolog file action " + Quoted(std::string(act)));
    } else if (f < 0) {
      return bad("file " + Quoted(fname) + " was not added");
    }
    e.file = static_cast<uint32_t>(f);
    t->entries.push_back(e);
    return Status();
  }
  uint64_t offset = 0, bytes = 0;
  if (!ToU64(w[first + 2], &offset)) return bad("bad offset");
  if (!ToU64(w[first + 3], &bytes) || bytes > UINT32_MAX) return bad("bad length");
  if (act == "wait") {
    // "wait" is not allowed with version 3 (fio logs it and skips it).
    if (t->version == 3 || o.replay_no_stall) return Status();
    e.kind = ReplayEntry::kWait;
    e.delay_us = offset;
    t->entries.push_back(e);
    return Status();
  }
  if (act == "read") {
    e.kind = ReplayEntry::kRead;
  } else if (act == "write") {
    e.kind = ReplayEntry::kWrite;
  } else if (act == "sync") {
    e.kind = ReplayEntry::kSync;
  } else if (act == "datasync") {
    e.kind = ReplayEntry::kDatasync;
  } else if (act == "trim") {
    e.kind = ReplayEntry::kTrim;
  } else {
    return bad("bad iolog file action " + Quoted(std::string(act)));
  }
  const int f = FindFile(*t, fname);
  if (f < 0) return bad("file " + Quoted(fname) + " was not added");
  e.file = static_cast<uint32_t>(f);
  e.offset = ReplayOffset(offset, o);
  e.length = bytes;
  if (e.offset > UINT64_MAX - bytes) return bad("offset past any device");
  if (e.kind == ReplayEntry::kRead || e.kind == ReplayEntry::kWrite) {
    const int d = e.kind == ReplayEntry::kRead ? 0 : 1;
    ++t->ios[d];
    t->max_bs[d] = std::max(t->max_bs[d], bytes);
  } else if (e.kind == ReplayEntry::kTrim) {
    ++t->trims;
  } else {
    ++t->syncs;
  }
  t->bytes += bytes;
  NoteExtent(t, e);
  t->entries.push_back(e);
  return Status();
}

}  // namespace

uint64_t DelaySince(uint64_t* last_ttime, uint64_t ttime, const JobOptions& o) {
  // fio's delay_since_ttime(): none for the first entry, with
  // replay_no_stall, or when time goes backwards.
  const uint64_t last = *last_ttime;
  if (!last || o.replay_no_stall || ttime < last) return 0;
  if (o.replay_time_scale == 100) return ttime - last;
  const double scale = 100.0 / static_cast<double>(o.replay_time_scale);
  return static_cast<uint64_t>(static_cast<double>(ttime - last) * scale);
}

uint64_t ReplayOffset(uint64_t offset, const JobOptions& o) {
  if (o.replay_scale) offset /= static_cast<uint64_t>(o.replay_scale);
  // ipo_bytes_align()
  if (o.replay_align) offset &= ~(static_cast<uint64_t>(o.replay_align) - 1);
  return offset;
}

void NoteExtent(ReplayTrace* t, const ReplayEntry& e) {
  if (e.kind != ReplayEntry::kRead && e.kind != ReplayEntry::kWrite && e.kind != ReplayEntry::kTrim)
    return;
  const uint64_t end = e.offset + e.length;
  if (end > t->extent[e.file]) {
    t->extent[e.file] = end;
    t->extent_where[e.file] = e.where;
  }
}

Result<ReplayTrace> ParseReplayTrace(const std::string& path, std::string_view data,
                                     const JobOptions& o) {
  ReplayTrace t;
  t.path = path;
  bool swap = false;
  if (IsBlktrace(data, &swap)) {
    t.blktrace = true;
    RETURN_IF_ERROR(ParseBlktrace(data, swap, o, &t));
  } else {
    // init_iolog_read(): the first line names the version.
    size_t eol = data.find('\n');
    std::string_view head = data.substr(0, eol);
    if (head.substr(0, kVer2.size()) == kVer2) {
      t.version = 2;
    } else if (head.substr(0, kVer3.size()) == kVer3) {
      t.version = 3;
    } else {
      return Status::InvalidArgument(
          path +
          ":1: not a fio iolog (version 2 or 3) or blktrace file (fio: iolog version 1 is "
          "no longer supported)");
    }
    uint64_t last_ttime = 0;
    uint32_t lineno = 1;
    size_t pos = eol == std::string_view::npos ? data.size() : eol + 1;
    while (pos < data.size()) {
      size_t end = data.find('\n', pos);
      if (end == std::string_view::npos) end = data.size();
      RETURN_IF_ERROR(ParseLine(data.substr(pos, end - pos), ++lineno, o, &last_ttime, &t));
      pos = end + 1;
    }
  }
  if (!t.ios[0] && !t.ios[1] && !t.syncs) {
    return Status::InvalidArgument(path + ": no reads, writes or syncs to replay");
  }
  return t;
}

Result<ReplayTrace> LoadReplayTrace(const std::string& path, const JobOptions& o) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::InvalidArgument("read_iolog: cannot open " + Quoted(path) + ": " +
                                   std::strerror(errno));
  }
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Status::InvalidArgument("read_iolog: cannot read " + Quoted(path));
  return ParseReplayTrace(path, data, o);
}

}  // namespace storlab::fio
