#include "sim/devices/ram_disk.h"

#include <vector>

#include "sim/state_coding.h"

namespace storlab {

RamDisk::RamDisk(Engine& engine, std::string name, const Config& p, std::unique_ptr<Store> store)
    : Node(engine, std::move(name)), p_(p), store_(std::move(store)) {
  geometry_.capacity = p.capacity;
  geometry_.logical_block = p.logical_block;
  geometry_.physical_block = p.logical_block;
  caps_.trim = true;
  caps_.queue_depth = p.queue_depth;
}

void RamDisk::DoSubmit(Request req) {
  if (busy_ >= p_.queue_depth) {
    waiting_.push_back(std::move(req));
    return;
  }
  Start(std::move(req));
}

void RamDisk::Start(Request req) {
  ++busy_;
  Nanos t = p_.latency;
  if (p_.bytes_per_s > 0 && (req.op == Op::kRead || req.op == Op::kWrite)) {
    // One data path shared by all requests: the transfer starts when the
    // latency has passed and the previous transfer is done.
    Nanos begin = Max(engine_.now() + p_.latency, bus_free_);
    bus_free_ = begin + TransferTime(req.length, p_.bytes_per_s);
    t = bus_free_ - engine_.now();
  }
  engine_.After(t, [this, r = std::move(req)]() mutable { Finish(std::move(r)); });
}

void RamDisk::Finish(Request req) {
  Status st;
  switch (req.op) {
    case Op::kRead:
      if (req.data) st = store_->Read(req.offset, req.length, req.data);
      break;
    case Op::kWrite:
      if (req.data) st = store_->Write(req.offset, req.length, req.data);
      break;
    case Op::kTrim:
    case Op::kWriteZeroes:
      st = store_->Zero(req.offset, req.length);
      break;
    case Op::kFlush:
      break;
  }
  --busy_;
  // Start the next waiting request before completing this one, so a request
  // submitted from the completion cannot overtake it.
  if (!waiting_.empty()) {
    Request next = std::move(waiting_.front());
    waiting_.pop_front();
    Start(std::move(next));
  }
  req.done(std::move(st));
}

void RamDisk::OnPowerCut() {
  busy_ = 0;
  bus_free_ = Nanos(0);
  waiting_.clear();
}

Status RamDisk::SaveState(StateWriter& w) const {
  if (busy_ || !waiting_.empty()) return Status::Internal("ram disk not idle");
  w.Time(bus_free_);
  return store_->SaveState(w);
}

Status RamDisk::RestoreState(StateReader& r) {
  bus_free_ = r.Time();
  RETURN_IF_ERROR(r.status());
  return store_->RestoreState(r);
}

}  // namespace storlab
