#include "sim/trace.h"

#include <cerrno>
#include <cstring>

#include "sim/quoted.h"

namespace storlab {
namespace {

// "-" or a comma list: fua, bg (kBackground), direct, nounmap.
std::string FlagText(uint32_t flags) {
  std::string s;
  auto add = [&](uint32_t bit, const char* name) {
    if (!(flags & bit)) return;
    if (!s.empty()) s += ',';
    s += name;
  };
  add(kFua, "fua");
  add(kBackground, "bg");
  add(kDirect, "direct");
  add(kNoUnmap, "nounmap");
  return s.empty() ? "-" : s;
}

std::string StatusText(const Status& st) {
  if (st.ok()) return "ok";
  std::string s = Status::CodeName(st.code());
  for (char& c : s) c = c == ' ' ? '_' : c;
  return s;
}

}  // namespace

Result<std::unique_ptr<Tracer>> Tracer::Open(const std::string& path, uint64_t limit) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    return Status::InvalidArgument("cannot write " + Quoted(path, 256) + ": " +
                                   std::strerror(errno));
  }
  return std::unique_ptr<Tracer>(new Tracer(f, path, limit));
}

Tracer::Tracer(uint64_t limit) : limit_(limit) {
  Put(std::string(kTraceFormat) + " " + std::to_string(kTraceVersion) + "\n");
  Put("# time_ns event id node op offset length flags status\n");
}

Tracer::Tracer(FILE* f, std::string path, uint64_t limit)
    : f_(f), path_(std::move(path)), limit_(limit) {
  std::setvbuf(f_, nullptr, _IOFBF, 1 << 16);
  Put(std::string(kTraceFormat) + " " + std::to_string(kTraceVersion) + "\n");
  Put("# time_ns event id node op offset length flags status\n");
}

Tracer::~Tracer() { (void)Close(); }

void Tracer::Put(const std::string& line) {
  if (f_) {
    std::fputs(line.c_str(), f_);
  } else {
    text_ += line;
  }
}

void Tracer::DescribeNode(std::string_view name, std::string_view type, bool is_volatile,
                          bool traced, const std::vector<std::string_view>& children) {
  const char* v = is_volatile ? (traced ? "traced" : "1") : "0";
  std::string s = "node " + std::string(name) + " " + std::string(type) + " " + v + " ";
  if (children.empty()) s += "-";
  for (size_t i = 0; i < children.size(); ++i) s += (i ? "," : "") + std::string(children[i]);
  Put(s + "\n");
}

void Tracer::Event(Nanos t, std::string_view event, uint64_t id, std::string_view node,
                   std::string_view op, uint64_t offset, uint64_t length, uint32_t flags,
                   std::string_view status) {
  if (closed_) return;
  if (events_ >= limit_) {
    if (dropped_++ == 0) cut_short_at_ = t - origin_;
    return;
  }
  ++events_;
  std::string s = std::to_string((t - origin_).count()) + " " + std::string(event) + " " +
                  (id ? std::to_string(id) : "-") + " " + std::string(node) + " " +
                  std::string(op) + " " + std::to_string(offset) + " " + std::to_string(length) +
                  " " + FlagText(flags) + " " + std::string(status) + "\n";
  Put(s);
}

uint64_t Tracer::Submit(Nanos t, std::string_view node, const Request& req) {
  const uint64_t id = next_id_++;
  const bool range = req.op != Op::kFlush;
  Event(t, "submit", id, node, OpName(req.op), range ? req.offset : 0, range ? req.length : 0,
        req.flags, "-");
  return id;
}

void Tracer::Complete(Nanos t, uint64_t id, std::string_view node, Op op, uint64_t offset,
                      uint64_t length, uint32_t flags, const Status& st) {
  Event(t, "complete", id, node, OpName(op), offset, length, flags, StatusText(st));
}

void Tracer::Destaged(Nanos t, std::string_view node, uint64_t offset, uint64_t length) {
  Event(t, "destaged", 0, node, "write", offset, length, 0, "-");
}

void Tracer::Durable(Nanos t, std::string_view node, uint64_t offset, uint64_t length) {
  Event(t, "durable", 0, node, "write", offset, length, 0, "-");
}

void Tracer::PowerCut(Nanos t) { Event(t, "power-cut", 0, "-", "-", 0, 0, 0, "-"); }

Status Tracer::Close() {
  if (closed_) return Status();
  if (dropped_) {
    Put("# truncated: the trace limit of " + std::to_string(limit_) + " lines was reached at " +
        std::to_string(cut_short_at_.count()) + " ns; " + std::to_string(dropped_) +
        " later events were not written\n");
  }
  closed_ = true;
  if (!f_) return Status();
  const bool bad = std::fflush(f_) != 0 || std::ferror(f_);
  const bool close_bad = std::fclose(f_) != 0;
  f_ = nullptr;
  if (bad || close_bad) return Status::IoError("cannot write " + Quoted(path_, 256));
  return Status();
}

}  // namespace storlab
