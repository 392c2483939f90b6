#include "sim/layers/raid/raid_array.h"

#include <algorithm>
#include <cassert>

namespace storlab {

struct RaidArray::Fanin {
  uint64_t epoch;
  int remaining = 0;
  uint64_t failed_mask = 0;
  PhaseDone done;
};

RaidArray::RaidArray(Engine& engine, std::string name, const RaidLayout& layout,
                     const std::vector<Node*>& members, bool keeps_data, uint64_t page)
    : engine_(engine),
      name_(std::move(name)),
      layout_(layout),
      keeps_data_(keeps_data),
      page_(page) {
  assert(members.size() <= static_cast<size_t>(kMaxMembers));
  for (Node* n : members) {
    Member m;
    m.node = n;
    members_.push_back(m);
  }
}

bool RaidArray::Usable(int m, uint64_t off, uint64_t len) const {
  const Member& mb = member(m);
  switch (mb.state) {
    case State::kInSync:
      return true;
    case State::kFailed:
      return false;
    case State::kRecovering:
      return off + len <= mb.frontier;
  }
  return false;
}

uint64_t RaidArray::UsablePrefix(int m, uint64_t off, uint64_t len) const {
  const Member& mb = member(m);
  switch (mb.state) {
    case State::kInSync:
      return len;
    case State::kFailed:
      return 0;
    case State::kRecovering:
      return off >= mb.frontier ? 0 : std::min(len, mb.frontier - off);
  }
  return 0;
}

bool RaidArray::degraded() const {
  for (const auto& m : members_)
    if (m.state != State::kInSync) return true;
  return false;
}

uint64_t RaidArray::recovering_mask() const {
  uint64_t mask = 0;
  for (int i = 0; i < size(); ++i)
    if (member(i).state == State::kRecovering) mask |= uint64_t{1} << i;
  return mask;
}

bool RaidArray::failed() const {
  int out = 0;
  for (const auto& m : members_) out += m.state != State::kInSync;
  switch (layout_.level()) {
    case RaidLevel::kRaid0:
      return out > 0;
    case RaidLevel::kRaid1:
      return out == size();
    case RaidLevel::kRaid5:
      return out > 1;
    case RaidLevel::kRaid6:
      return out > 2;
    case RaidLevel::kRaid10: {
      // md raid10 _enough(): every run of `copies` members starting at a
      // multiple of `copies` (wrapping) must keep one member in sync.
      const int n = size(), k = layout_.copies();
      int first = 0;
      do {
        int alive = 0;
        for (int j = 0; j < k; ++j) alive += InSync((first + j) % n);
        if (alive == 0) return true;
        first = (first + k) % n;
      } while (first != 0);
      return false;
    }
  }
  return true;
}

bool RaidArray::MarkFailed(int m) {
  Member& mb = member(m);
  if (mb.state == State::kFailed) return false;
  mb.state = State::kFailed;
  mb.frontier = mb.durable_frontier = 0;
  ++counters_.members_failed;
  if (on_member_change) on_member_change();
  return true;
}

void RaidArray::Submit(int m, Op op, uint64_t off, uint64_t len, uint8_t* data, uint32_t flags,
                       std::shared_ptr<Fanin> fanin, bool* failed_flag) {
  Member& mb = member(m);
  ++mb.in_flight;
  if (!(flags & kBackground) && op != Op::kFlush) foreground_bytes_ += len;
  auto on_done = [this, m, off, len, fanin = std::move(fanin), failed_flag](Status st) {
    if (fanin->epoch != epoch_) return;
    Member& mb = member(m);
    if (mb.in_flight > 0) --mb.in_flight;
    if (len > 0) mb.head = off + len;
    if (!st.ok()) {
      ++counters_.member_errors;
      fanin->failed_mask |= uint64_t{1} << m;
      if (failed_flag) *failed_flag = true;
    }
    if (--fanin->remaining == 0) fanin->done(fanin->failed_mask);
  };
  mb.node->Submit(Request{.op = op,
                          .flags = flags,
                          .offset = off,
                          .length = len,
                          .data = data,
                          .done = std::move(on_done)});
}

void RaidArray::Issue(ExtentSet& set, Op op, uint32_t flags, PhaseDone done) {
  auto fanin = std::make_shared<Fanin>();
  fanin->epoch = epoch_;
  fanin->done = std::move(done);
  if (set.empty()) {
    engine_.After(Nanos(0), [this, fanin] {
      if (fanin->epoch == epoch_) fanin->done(0);
    });
    return;
  }
  fanin->remaining = static_cast<int>(set.extents().size());
  for (auto& e : set.extents()) {
    e.failed = false;
    Submit(e.member, op, e.offset, e.length, e.data.get(), flags, fanin, &e.failed);
  }
}

void RaidArray::IssueEach(uint64_t mask, Op op, uint64_t off, uint64_t len, uint32_t flags,
                          PhaseDone done) {
  auto fanin = std::make_shared<Fanin>();
  fanin->epoch = epoch_;
  fanin->done = std::move(done);
  for (int m = 0; m < size(); ++m) fanin->remaining += (mask >> m) & 1;
  if (fanin->remaining == 0) {
    engine_.After(Nanos(0), [this, fanin] {
      if (fanin->epoch == epoch_) fanin->done(0);
    });
    return;
  }
  for (int m = 0; m < size(); ++m)
    if ((mask >> m) & 1) Submit(m, op, off, len, nullptr, flags, fanin, nullptr);
}

void RaidArray::PowerCut() {
  ++epoch_;
  lock_.Clear();
  stripe_heads_.Clear();
  preread_gate_.Clear();
  for (auto& m : members_) {
    m.in_flight = 0;
    if (m.state == State::kRecovering) m.frontier = m.durable_frontier;
  }
}

}  // namespace storlab
