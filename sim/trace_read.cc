#include "sim/trace_read.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "sim/quoted.h"
#include "sim/trace.h"

namespace storlab {
namespace {

std::vector<std::string> Fields(std::string_view line) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) out.emplace_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

bool Number(const std::string& s, uint64_t* out) {
  if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  *out = std::stoull(s);
  return true;
}

bool KnownOp(const std::string& op) {
  return op == "read" || op == "write" || op == "flush" || op == "trim" || op == "write_zeroes";
}

}  // namespace

Result<ParsedTrace> ReadTrace(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound(Printable(path, 256) + ": cannot read: " + std::strerror(errno));
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseTrace(ss.str(), path);
}

Result<ParsedTrace> ParseTrace(std::string_view text, const std::string& file) {
  ParsedTrace t;
  t.file = file;
  const std::string name = Printable(file, 256);
  size_t pos = 0, line_no = 0;
  auto fail = [&](const std::string& what) {
    return Status::InvalidArgument(name + ":" + std::to_string(line_no) + ": " + what);
  };
  auto node_index = [&](const std::string& n) {
    for (size_t i = 0; i < t.nodes.size(); ++i)
      if (t.nodes[i].name == n) return static_cast<int>(i);
    return -1;
  };
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    std::vector<std::string> f = Fields(line);
    if (line_no == 1) {
      if (f.size() != 2 || f[0] != kTraceFormat) {
        return fail("not a storlab trace (the first line should be '" + std::string(kTraceFormat) +
                    " " + std::to_string(kTraceVersion) +
                    "'; write one with storlab sim --trace FILE)");
      }
      if (f[1] != std::to_string(kTraceVersion)) {
        return fail("trace format version " + Quoted(f[1]) +
                    " is not supported (this storlab reads " + std::to_string(kTraceVersion) + ")");
      }
      continue;
    }
    if (line.find('\0') != std::string_view::npos) return fail("not a text line (a NUL byte)");
    if (f.empty()) continue;
    if (f[0][0] == '#') {
      if (line.rfind("# truncated:", 0) == 0) {
        t.truncated = true;
        t.truncated_note = std::string(line.substr(2));
      }
      continue;
    }
    if (f[0] == "node") {
      if (f.size() != 5 || (f[3] != "0" && f[3] != "1" && f[3] != "traced")) {
        return fail("a node line is 'node NAME TYPE VOLATILE CHILDREN' (got " + Quoted(line) + ")");
      }
      if (node_index(f[1]) >= 0) return fail("node " + Quoted(f[1]) + " is described twice");
      TraceNode n;
      n.name = f[1];
      n.type = f[2];
      n.is_volatile = f[3] != "0";
      n.traced = f[3] == "traced";
      if (f[4] != "-") {
        std::stringstream kids(f[4]);
        for (std::string k; std::getline(kids, k, ',');) n.children.push_back(k);
      }
      t.nodes.push_back(std::move(n));
      continue;
    }
    if (f.size() != 9) {
      return fail(
          "an event line has 9 fields (time_ns event id node op offset length flags "
          "status); got " +
          std::to_string(f.size()) + ": " + Quoted(line));
    }
    TraceEvent e;
    e.line = line_no;
    uint64_t v = 0;
    if (!Number(f[0], &v)) return fail("time " + Quoted(f[0]) + " is not a number of ns");
    e.t_ns = static_cast<int64_t>(v);
    const std::string& k = f[1];
    if (k == "submit") {
      e.kind = TraceEventKind::kSubmit;
    } else if (k == "complete") {
      e.kind = TraceEventKind::kComplete;
    } else if (k == "destaged") {
      e.kind = TraceEventKind::kDestaged;
    } else if (k == "durable") {
      e.kind = TraceEventKind::kDurable;
    } else if (k == "power-cut") {
      e.kind = TraceEventKind::kPowerCut;
    } else {
      return fail("unknown event " + Quoted(k) +
                  " (expected submit, complete, destaged, durable or power-cut)");
    }
    const bool request = e.kind == TraceEventKind::kSubmit || e.kind == TraceEventKind::kComplete;
    if (request ? !Number(f[2], &e.id) || e.id == 0 : f[2] != "-") {
      return fail("id " + Quoted(f[2]) + (request ? " is not a request id" : " should be '-'"));
    }
    if (e.kind != TraceEventKind::kPowerCut) {
      e.node = node_index(f[3]);
      if (e.node < 0) return fail("node " + Quoted(f[3]) + " has no node line before it");
      if (!KnownOp(f[4])) return fail("unknown op " + Quoted(f[4]));
    }
    e.op = f[4];
    if (!Number(f[5], &e.offset) || !Number(f[6], &e.length)) {
      return fail("offset and length must be numbers (got " + Quoted(f[5]) + " and " +
                  Quoted(f[6]) + ")");
    }
    e.fua = f[7].find("fua") != std::string::npos;
    e.background = f[7].find("bg") != std::string::npos;
    e.ok = f[8] == "ok" || f[8] == "-";
    if (!t.events.empty() && e.t_ns < t.events.back().t_ns) {
      return fail("time " + f[0] + " is before the line above's (" +
                  std::to_string(t.events.back().t_ns) + "): a trace is in time order");
    }
    t.events.push_back(std::move(e));
  }
  if (line_no == 0) return Status::InvalidArgument(name + ":1: empty file, not a storlab trace");
  for (size_t i = 0; i < t.nodes.size(); ++i) {
    for (const auto& c : t.nodes[i].children) {
      const int k = node_index(c);
      if (k >= 0) t.nodes[static_cast<size_t>(k)].parent = static_cast<int>(i);
    }
  }
  return t;
}

}  // namespace storlab
