#include "sim/layers/rmw/rmw_node.h"

#include <cstring>
#include <vector>

#include "sim/stat_table.h"

namespace storlab {

struct RmwNode::Pending {
  Request req;
  uint64_t lo = 0, hi = 0;  // the whole units under the request
  uint64_t ticket = 0;
  uint64_t epoch = 0;
  std::vector<uint8_t> buf;  // [lo, hi) (a write), or the partial units (write-zeroes)
  int pending = 0;
  Status status;
  bool head() const { return req.offset > lo; }
  bool tail() const { return req.offset + req.length < hi; }
};

RmwNode::RmwNode(Engine& engine, std::string name, Node& child, const Config& config)
    : NodeWrapper(engine, std::move(name), child), config_(config) {
  geometry_.capacity = Down(child.geometry().capacity);
  geometry_.logical_block = config.logical_block;
  geometry_.physical_block =
      static_cast<uint32_t>(std::min<uint64_t>(config.unit, std::numeric_limits<uint32_t>::max()));
}

double RmwNode::write_amplification() const {
  if (client_write_bytes_ == 0) return 1.0;
  return static_cast<double>(child_write_bytes_) / static_cast<double>(client_write_bytes_);
}

void RmwNode::DoSubmit(Request req) {
  switch (req.op) {
    case Op::kRead:
      return Read(std::move(req));
    case Op::kWrite:
    case Op::kWriteZeroes:
      return Write(std::move(req));
    case Op::kTrim:
      return Trim(std::move(req));
    case Op::kFlush:
      return child_.Submit(std::move(req));
  }
}

void RmwNode::Read(Request req) {
  const uint64_t lo = Down(req.offset), hi = Up(req.offset + req.length);
  read_bytes_ += req.length;
  child_read_bytes_ += hi - lo;
  if (lo == req.offset && hi == req.offset + req.length) return child_.Submit(std::move(req));
  // The child reads whole units; the client gets its part.
  auto op = std::make_shared<Pending>();
  op->req = std::move(req);
  op->lo = lo;
  op->hi = hi;
  op->epoch = epoch_;
  if (op->req.data) op->buf.resize(hi - lo);
  Request r{.op = Op::kRead,
            .offset = lo,
            .length = hi - lo,
            .data = op->buf.empty() ? nullptr : op->buf.data(),
            .done = [this, op](Status st) {
              if (op->epoch != epoch_) return;
              if (st.ok() && op->req.data) {
                std::memcpy(op->req.data, op->buf.data() + (op->req.offset - op->lo),
                            op->req.length);
              }
              op->req.done(std::move(st));
            }};
  child_.Submit(std::move(r));
}

void RmwNode::Write(Request req) {
  auto op = std::make_shared<Pending>();
  op->lo = Down(req.offset);
  op->hi = Up(req.offset + req.length);
  op->epoch = epoch_;
  if (req.op == Op::kWrite) client_write_bytes_ += req.length;
  op->req = std::move(req);
  // Writes to the same units wait for each other, or one would be lost.
  lock_.Acquire(op->lo, op->hi, [this, op](uint64_t ticket) {
    op->ticket = ticket;
    if (!op->head() && !op->tail()) return WriteUnits(op);
    ++rmw_writes_;
    ReadUnits(op);
  });
}

void RmwNode::ReadUnits(const std::shared_ptr<Pending>& op) {
  const uint64_t unit = config_.unit;
  const bool data = op->req.op == Op::kWrite ? op->req.data != nullptr : config_.keeps_data;
  // A write keeps [lo, hi); write-zeroes keeps only the partial units.
  const bool merged = op->req.op == Op::kWrite;
  if (data) op->buf.resize(merged ? op->hi - op->lo : 2 * unit);
  std::vector<std::pair<uint64_t, uint64_t>> reads;  // unit offset, buffer offset
  if (op->head()) reads.emplace_back(op->lo, 0);
  if (op->tail() && !(op->head() && op->hi - op->lo == unit)) {
    reads.emplace_back(op->hi - unit, merged ? op->hi - unit - op->lo : unit);
  }
  op->pending = static_cast<int>(reads.size());
  for (const auto& [at, boff] : reads) {
    rmw_read_bytes_ += unit;
    child_read_bytes_ += unit;
    Request r{.op = Op::kRead,
              .offset = at,
              .length = unit,
              .data = data ? op->buf.data() + boff : nullptr,
              .done = [this, op](Status st) {
                if (op->epoch != epoch_) return;
                if (!st.ok() && op->status.ok()) op->status = std::move(st);
                if (--op->pending == 0) {
                  if (!op->status.ok()) return Finish(op);
                  WriteUnits(op);
                }
              }};
    child_.Submit(std::move(r));
  }
}

void RmwNode::WriteUnits(const std::shared_ptr<Pending>& op) {
  const uint64_t unit = config_.unit, off = op->req.offset, end = off + op->req.length;
  const uint32_t flags = op->req.flags & (kFua | kNoUnmap);
  struct Part {
    Op kind;  // the child operation
    uint64_t offset, length;
    uint8_t* data;
  };
  std::vector<Part> parts;
  if (op->req.op == Op::kWrite) {
    uint8_t* data = op->req.data;
    if (!op->buf.empty()) {
      std::memcpy(op->buf.data() + (off - op->lo), op->req.data, op->req.length);
      data = op->buf.data();
    }
    parts.push_back({Op::kWrite, op->lo, op->hi - op->lo, data});
  } else {
    // Write-zeroes: the partial units are rewritten with zeros merged in;
    // the whole units between go down as write-zeroes.
    const bool data = !op->buf.empty();
    const bool one_unit = op->hi - op->lo == unit;
    if (op->head()) {
      if (data) std::memset(op->buf.data() + (off - op->lo), 0, std::min(end, op->lo + unit) - off);
      parts.push_back({Op::kWrite, op->lo, unit, data ? op->buf.data() : nullptr});
    }
    const uint64_t mid_lo = Up(off), mid_hi = Down(end);
    if (mid_lo < mid_hi) parts.push_back({Op::kWriteZeroes, mid_lo, mid_hi - mid_lo, nullptr});
    if (op->tail() && !(op->head() && one_unit)) {
      uint8_t* t = data ? op->buf.data() + unit : nullptr;
      if (t)
        std::memset(t + std::max(off, op->hi - unit) - (op->hi - unit), 0,
                    end - std::max(off, op->hi - unit));
      parts.push_back({Op::kWrite, op->hi - unit, unit, t});
    }
  }
  op->pending = static_cast<int>(parts.size());
  for (const Part& p : parts) {
    if (p.kind == Op::kWrite) child_write_bytes_ += p.length;
    Request w{.op = p.kind,
              .flags = flags,
              .offset = p.offset,
              .length = p.length,
              .data = p.data,
              .done = [this, op](Status st) {
                if (op->epoch != epoch_) return;
                if (!st.ok() && op->status.ok()) op->status = std::move(st);
                if (--op->pending == 0) Finish(op);
              }};
    child_.Submit(std::move(w));
  }
}

void RmwNode::Finish(const std::shared_ptr<Pending>& op) {
  lock_.Release(op->ticket);
  op->req.done(std::move(op->status));
}

void RmwNode::Trim(Request req) {
  // Only whole units can be discarded; a trim promises nothing of the rest.
  const uint64_t lo = Up(req.offset), hi = Down(req.offset + req.length);
  if (lo >= hi) return CompleteAfter(Nanos(0), std::move(req));
  req.offset = lo;
  req.length = hi - lo;
  child_.Submit(std::move(req));
}

void RmwNode::OnPowerCut() {
  ++epoch_;
  lock_.Clear();
}

void RmwNode::AppendStats(StatList& out) const {
  static constexpr StatField<RmwNode> kStats[] = {
      {"client_write_bytes", kBytes,
       [](const RmwNode& x) { return StatNumber(x.client_write_bytes_); }},
      {"child_write_bytes", kBytes,
       [](const RmwNode& x) { return StatNumber(x.child_write_bytes_); }},
      {"write_amplification", kRatio,
       [](const RmwNode& x) { return StatNumber(x.write_amplification()); }},
      {"rmw_writes", kCount, [](const RmwNode& x) { return StatNumber(x.rmw_writes_); }},
      {"rmw_read_bytes", kBytes, [](const RmwNode& x) { return StatNumber(x.rmw_read_bytes_); }},
      {"read_amplification", kRatio,
       [](const RmwNode& x) {
         return x.read_bytes_ ? StatNumber(x.child_read_bytes_) / StatNumber(x.read_bytes_) : 1.0;
       }},
  };
  AppendStatTable(*this, kStats, out);
}

}  // namespace storlab
