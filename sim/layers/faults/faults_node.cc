#include "sim/layers/faults/faults_node.h"

#include <algorithm>

#include "sim/stat_table.h"

namespace storlab {

FaultsNode::FaultsNode(Engine& engine, const std::string& name, Node& child, const Config& config,
                       uint64_t seed)
    : NodeWrapper(engine, name, child), config_(config), rng_(seed, name) {
  for (const auto& [off, len] : config.media_errors) bad_.Add(off, len);
}

void FaultsNode::SetLatencySpikes(double probability, Nanos latency) {
  config_.spike_probability = probability;
  config_.spike_latency = latency;
}

void FaultsNode::Reappear() {
  disappeared_ = false;
  config_.disappear_at.reset();
  config_.disappear_after_ios = 0;
}

void FaultsNode::DoSubmit(Request req) {
  if (replaying_ > 0) {
    held_.push_back(std::move(req));
    return;
  }
  Handle(std::move(req));
}

void FaultsNode::Fail(Request req, Nanos delay, const std::string& what) {
  CompleteAfter(delay, std::move(req), Status::IoError(name() + ": " + what));
}

void FaultsNode::Handle(Request req) {
  ++ios_;
  if ((config_.disappear_at && engine_.now() >= *config_.disappear_at) ||
      (config_.disappear_after_ios != 0 && ios_ > config_.disappear_after_ios)) {
    disappeared_ = true;
  }
  if (disappeared_) {
    ++lost_device_errors_;
    return Fail(std::move(req), Nanos(0), "device has disappeared");
  }
  const bool touches_bad = req.op != Op::kFlush && bad_.Intersects(req.offset, req.length);
  if (touches_bad && req.op == Op::kRead) {
    ++media_errors_returned_;
    // The message before the move: argument evaluation order is unspecified.
    std::string what = "unrecovered read error in " + std::to_string(req.offset) + "+" +
                       std::to_string(req.length);
    return Fail(std::move(req), config_.media_error_latency, what);
  }
  if (touches_bad && (req.op == Op::kWrite || req.op == Op::kWriteZeroes)) {
    if (config_.bad_writes == BadWrites::kFail) {
      ++media_errors_returned_;
      std::string what =
          "write error in " + std::to_string(req.offset) + "+" + std::to_string(req.length);
      return Fail(std::move(req), config_.media_error_latency, what);
    }
    bad_.Remove(req.offset, req.length);  // the drive reallocates the sectors
    ++remapped_writes_;
  }
  if (config_.spike_probability > 0 && rng_.Bernoulli(config_.spike_probability)) {
    // The request stalls before the device acts on it (as nbdkit's delay
    // filter waits, then calls next): a read returns what is there then.
    ++spikes_;
    engine_.After(config_.spike_latency, [this, epoch = epoch_, r = std::move(req)]() mutable {
      if (epoch == epoch_) Forward(std::move(r));
    });
    return;
  }
  Forward(std::move(req));
}

void FaultsNode::Forward(Request req) {
  uint64_t tracked = 0;
  if (config_.torn_writes && req.op == Op::kWrite) {
    tracked = ++next_write_;
    InFlightWrite& w = in_flight_writes_[tracked];
    w.offset = req.offset;
    w.length = req.length;
    if (req.data) w.data.assign(req.data, req.data + req.length);
  }
  if (tracked != 0) {
    req.done = [this, tracked, epoch = epoch_, done = std::move(req.done)](Status st) mutable {
      if (epoch != epoch_) return;
      in_flight_writes_.erase(tracked);
      done(std::move(st));
    };
  }
  child_.Submit(std::move(req));
}

void FaultsNode::OnPowerCut() {
  ++epoch_;
  held_.clear();
  replaying_ = 0;
  // Writes in flight at the cut: a seeded prefix of each reached the medium.
  const uint64_t lb = geometry_.logical_block;
  auto replays = std::make_shared<std::vector<Replay>>();
  for (auto& [seq, w] : in_flight_writes_) {
    const uint64_t sectors = w.length / lb;
    const uint64_t landed = rng_.Uniform(sectors + 1) * lb;
    ++torn_writes_;
    torn_bytes_landed_ += landed;
    if (landed > 0 && !w.data.empty()) {
      w.data.resize(landed);
      replays->push_back({w.offset, landed, std::move(w.data)});
    }
  }
  in_flight_writes_.clear();
  if (!replays->empty()) StartReplay(replays);
}

void FaultsNode::StartReplay(const std::shared_ptr<std::vector<Replay>>& replays) {
  // The engine was cleared before OnPowerCut: this runs when power returns,
  // before the child sees anything else.
  replaying_ = replays->size();
  engine_.After(Nanos(0), [this, replays, epoch = epoch_] {
    if (epoch != epoch_) return;
    for (Replay& r : *replays) {
      Request w{.op = Op::kWrite,
                .flags = kFua | kBackground,
                .offset = r.offset,
                .length = r.length,
                .data = r.data.data(),
                .done = [this, replays, epoch](Status) {
                  if (epoch != epoch_ || --replaying_ > 0) return;
                  std::deque<Request> held = std::move(held_);
                  held_.clear();
                  for (Request& q : held) Handle(std::move(q));
                }};
      child_.Submit(std::move(w));
    }
  });
}

void FaultsNode::AppendStats(StatList& out) const {
  static constexpr StatField<FaultsNode> kStats[] = {
      {"media_error_bytes", kBytes, [](const FaultsNode& x) { return StatNumber(x.bad_.bytes()); }},
      {"media_errors_returned", kCount,
       [](const FaultsNode& x) { return StatNumber(x.media_errors_returned_); }},
      {"remapped_writes", kCount,
       [](const FaultsNode& x) { return StatNumber(x.remapped_writes_); }},
      {"latency_spikes", kCount, [](const FaultsNode& x) { return StatNumber(x.spikes_); }},
      {"disappeared", kFlag, [](const FaultsNode& x) { return StatNumber(x.disappeared_); }},
      {"lost_device_errors", kCount,
       [](const FaultsNode& x) { return StatNumber(x.lost_device_errors_); }},
      {"torn_writes", kCount, [](const FaultsNode& x) { return StatNumber(x.torn_writes_); }},
      {"torn_bytes_landed", kBytes,
       [](const FaultsNode& x) { return StatNumber(x.torn_bytes_landed_); }},
  };
  AppendStatTable(*this, kStats, out);
}

}  // namespace storlab
