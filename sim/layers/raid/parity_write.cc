// WRITE and WRITE ZEROES on RAID5/6. Each stripe is cut into row segments
// (at page boundaries, md's STRIPE_SIZE) in which every data chunk is fully
// written, partly written or untouched. For each segment the cheaper of
// read-modify-write (read old data + P/Q, fold the change in) and
// reconstruct-write (read the untouched data, compute P/Q afresh) is chosen
// by counting member reads exactly as md's handle_stripe_dirtying() does,
// a member that cannot be read costing 2*disks; ties go to
// reconstruct-write unless rmw_level = 2. A segment written whole needs no
// reads (a full-stripe write). When neither works (a lost chunk is only
// partly written) every readable block is read and the lost ones rebuilt
// first, as md's need_this_block() does for degraded writes. A window
// holds one stripe_head per page row it touches (md's stripe cache,
// stripe_heads.h) from before its reads until its writes are done.
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "sim/layers/raid/array_op.h"
#include "sim/layers/raid/gf256.h"
#include "sim/layers/raid/parity.h"
#include "sim/layers/raid/raid_ops.h"
#include "sim/layers/raid/striped_map.h"

namespace storlab {
namespace {

class ParityWrite : public ArrayOp {
 public:
  ParityWrite(RaidArray& a, Request req)
      : ArrayOp(a, std::move(req)), reads_(a.size()), writes_(a.size()) {}

 private:
  enum class How : uint8_t { kFull, kRmw, kRcw, kDegraded };
  struct Seg {
    uint64_t stripe, r0, r1;
    How how;
    uint64_t read_mask = 0, write_mask = 0;
    std::vector<int> lost;  // kDegraded: data indexes rebuilt before the write
  };

  uint64_t WindowAlign() const override { return a_.layout().stripe_bytes(); }

  void Window(uint64_t off, uint64_t len) override {
    off_ = off;
    len_ = len;
    auto [lo, hi] = RowSpan(a_.layout(), off, len, a_.page());
    Lock(lo, hi, [this] { Admit(); });
  }

  // Takes the window's stripe_heads (kept across a retry), then plans.
  void Admit() {
    if (heads_ != 0) return Plan();
    auto me = std::static_pointer_cast<ParityWrite>(self());
    a_.stripe_heads().Acquire(HeadsNeeded(), [me](uint32_t granted) {
      me->heads_ = granted;
      me->Plan();
    });
  }

  // Page rows of the window, per stripe the union of the chunks' covers.
  uint32_t HeadsNeeded() const {
    const RaidLayout& l = a_.layout();
    const uint64_t pg = a_.page();
    const uint64_t s0 = off_ / l.stripe_bytes(), s1 = (off_ + len_ - 1) / l.stripe_bytes();
    uint64_t rows = 0;
    std::vector<std::pair<uint64_t, uint64_t>> covers;
    for (uint64_t s = s0; s <= s1 && rows < a_.stripe_heads().capacity(); ++s) {
      covers.clear();
      for (int d = 0; d < l.data_disks(); ++d) {
        auto [lo, hi] = Cover(s, d);
        if (lo < hi) covers.emplace_back(lo / pg, (hi + pg - 1) / pg);
      }
      std::sort(covers.begin(), covers.end());
      uint64_t end = 0;
      for (auto [lo, hi] : covers) {
        lo = std::max(lo, end);
        if (hi > lo) rows += hi - lo;
        end = std::max(end, hi);
      }
    }
    return static_cast<uint32_t>(std::min<uint64_t>(rows, a_.stripe_heads().capacity()));
  }

  // The window ends: its stripe_heads go back.
  void OnWindowEnd() override {
    if (epoch_ == a_.epoch()) {
      if (heads_ != 0) a_.stripe_heads().Release(heads_);
      if (gated_) a_.preread_gate().Leave();
    }
    heads_ = 0;
    gated_ = false;
  }

  std::pair<uint64_t, uint64_t> Cover(uint64_t s, int d) const {
    return ChunkCover(a_.layout(), s, d, off_, len_);
  }

  void Plan() {
    const RaidLayout& l = a_.layout();
    reads_.Reset();
    writes_.Reset();
    segs_.clear();
    const uint64_t s0 = off_ / l.stripe_bytes(), s1 = (off_ + len_ - 1) / l.stripe_bytes();
    for (uint64_t s = s0; s <= s1; ++s) {
      if (!PlanStripe(s)) {
        return WindowDone(Status::IoError(a_.name() + ": too many members lost to write"));
      }
    }
    reads_.Finalize(with_data());
    writes_.Finalize(with_data());
    auto me = std::static_pointer_cast<ParityWrite>(self());
    auto issue = [me] {
      me->a_.Issue(me->reads_, Op::kRead, 0, [me](uint64_t failed) { me->OnReads(failed); });
    };
    if (gated_ || reads_.empty()) return issue();
    gated_ = true;
    // REQ_SYNC: a client's own write (O_DIRECT), an fsync's writeback, a
    // FUA write (a committer's).
    const bool sync = (req_.flags & kBackground) == 0 || (req_.flags & kSync) != 0 || req_.fua();
    a_.preread_gate().Enter(sync, std::move(issue));
  }

  bool PlanStripe(uint64_t s) {
    const RaidLayout& l = a_.layout();
    const uint64_t pg = a_.page();
    std::vector<uint64_t> cuts;
    for (int d = 0; d < l.data_disks(); ++d) {
      auto [lo, hi] = Cover(s, d);
      if (lo == hi) continue;
      for (uint64_t b : {lo, hi}) {
        cuts.push_back(b / pg * pg);
        cuts.push_back((b + pg - 1) / pg * pg);
      }
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (size_t i = 0; i + 1 < cuts.size(); ++i) {
      bool touched = false;
      for (int d = 0; d < l.data_disks() && !touched; ++d) {
        auto [lo, hi] = Cover(s, d);
        touched = lo < cuts[i + 1] && cuts[i] < hi;
      }
      if (touched && !PlanSegment(s, cuts[i], cuts[i + 1])) return false;
    }
    return true;
  }

  bool PlanSegment(uint64_t s, uint64_t r0, uint64_t r1) {
    const RaidLayout& l = a_.layout();
    const uint64_t mo = s * l.chunk() + r0, n = r1 - r0;
    const int penalty = 2 * a_.size();
    const int pm = l.PMember(s), qm = l.QMember(s);
    Seg g{s, r0, r1, How::kFull, 0, 0, {}};
    int rmw = 0, rcw = 0;
    for (int d = 0; d < l.data_disks(); ++d) {
      auto [lo, hi] = Cover(s, d);
      const bool covered = lo < r1 && r0 < hi, full = lo <= r0 && hi >= r1;
      const int cost = Readable(l.DataMember(s, d), mo, n) ? 1 : penalty;
      if (covered) rmw += cost;
      if (!full) rcw += cost;
    }
    for (int pq : {pm, qm})
      if (pq >= 0) rmw += Readable(pq, mo, n) ? 1 : penalty;
    const int level = a_.rmw_level();
    const bool use_rmw = level > 0 && (rmw < rcw || (rmw == rcw && level == 2));
    g.how = use_rmw ? How::kRmw : rcw == 0 ? How::kFull : How::kRcw;
    if ((use_rmw ? rmw : rcw) >= penalty) g.how = How::kDegraded;

    auto read = [&](int m) {
      reads_.Add(m, mo, n);
      g.read_mask |= uint64_t{1} << m;
    };
    for (int d = 0; d < l.data_disks(); ++d) {
      auto [lo, hi] = Cover(s, d);
      const bool covered = lo < r1 && r0 < hi, full = lo <= r0 && hi >= r1;
      const int m = l.DataMember(s, d);
      switch (g.how) {
        case How::kFull:
          break;
        case How::kRmw:
          if (covered) read(m);
          break;
        case How::kRcw:
          if (!full) read(m);
          break;
        case How::kDegraded:
          if (Readable(m, mo, n)) {
            read(m);
          } else {
            g.lost.push_back(d);
          }
          break;
      }
      if (covered && a_.Usable(m, mo, n)) g.write_mask |= uint64_t{1} << m;
    }
    int parity_readable = 0;
    for (int pq : {pm, qm}) {
      if (pq < 0) continue;
      const bool readable = Readable(pq, mo, n);
      parity_readable += readable;
      if (readable && (g.how == How::kRmw || g.how == How::kDegraded)) read(pq);
      if (a_.Usable(pq, mo, n)) g.write_mask |= uint64_t{1} << pq;
    }
    if (g.how == How::kDegraded &&
        (g.lost.size() > 2 || static_cast<int>(g.lost.size()) > parity_readable)) {
      return false;
    }
    for (int m = 0; m < a_.size(); ++m)
      if ((g.write_mask >> m) & 1) writes_.Add(m, mo, n);
    RaidCounters& c = a_.counters();
    switch (g.how) {
      case How::kFull:
        ++c.full_stripe_writes;
        break;
      case How::kRmw:
        ++c.rmw_writes;
        break;
      case How::kRcw:
        ++c.rcw_writes;
        break;
      case How::kDegraded:
        ++c.degraded_writes;
        break;
    }
    segs_.push_back(std::move(g));
    return true;
  }

  void OnReads(uint64_t failed) {
    if (failed != 0) {
      NoteReadErrors(failed, reads_);
      return RetryWindow();  // re-plan without them; the lock is still held
    }
    if (with_data()) {
      for (const Seg& g : segs_) Compute(g);
    }
    auto me = std::static_pointer_cast<ParityWrite>(self());
    a_.Issue(writes_, Op::kWrite, write_flags(), [me](uint64_t failed) { me->OnWrites(failed); });
  }

  void OnWrites(uint64_t failed) {
    NoteWriteErrors(failed);
    if (a_.failed()) return WindowDone(Status::IoError(a_.name() + ": array has failed"));
    WindowDone(Status());
  }

  // Fills the write buffers of one segment: new data and new parity.
  void Compute(const Seg& g) {
    const RaidLayout& l = a_.layout();
    const uint64_t mo = g.stripe * l.chunk() + g.r0, n = g.r1 - g.r0;
    const size_t dd = static_cast<size_t>(l.data_disks());
    std::vector<std::unique_ptr<uint8_t[]>> tmp;
    auto alloc = [&] {
      tmp.emplace_back(new uint8_t[n]);
      return tmp.back().get();
    };
    auto has = [](uint64_t mask, int m) { return m >= 0 && ((mask >> m) & 1); };
    const int pm = l.PMember(g.stripe), qm = l.QMember(g.stripe);

    std::vector<uint8_t*> old(dd, nullptr);
    for (size_t d = 0; d < dd; ++d) {
      const int m = l.DataMember(g.stripe, static_cast<int>(d));
      if (has(g.read_mask, m)) old[d] = reads_.At(m, mo);
    }
    if (g.how == How::kDegraded && !g.lost.empty()) {
      for (int d : g.lost) old[static_cast<size_t>(d)] = alloc();
      parity::Recover(old, g.lost, has(g.read_mask, pm) ? reads_.At(pm, mo) : nullptr,
                      has(g.read_mask, qm) ? reads_.At(qm, mo) : nullptr, n);
    }
    std::vector<const uint8_t*> now(dd, nullptr);
    for (size_t d = 0; d < dd; ++d) {
      auto [lo, hi] = Cover(g.stripe, static_cast<int>(d));
      const uint64_t base = g.stripe * l.stripe_bytes() + d * l.chunk();
      if (!(lo < g.r1 && g.r0 < hi)) {
        now[d] = old[d];
      } else if (lo <= g.r0 && hi >= g.r1) {
        now[d] = Source(base + g.r0);
      } else {
        uint8_t* b = alloc();
        std::memcpy(b, old[d], n);
        const uint64_t c0 = std::max(lo, g.r0), c1 = std::min(hi, g.r1);
        std::memcpy(b + (c0 - g.r0), Source(base + c0), c1 - c0);
        now[d] = b;
      }
    }
    uint8_t* p = has(g.write_mask, pm) ? writes_.At(pm, mo) : nullptr;
    uint8_t* q = has(g.write_mask, qm) ? writes_.At(qm, mo) : nullptr;
    if (g.how == How::kRmw) {
      if (p) std::memcpy(p, reads_.At(pm, mo), n);
      if (q) std::memcpy(q, reads_.At(qm, mo), n);
      uint8_t* delta = alloc();
      for (size_t d = 0; d < dd; ++d) {
        auto [lo, hi] = Cover(g.stripe, static_cast<int>(d));
        if (!(lo < g.r1 && g.r0 < hi)) continue;
        std::memcpy(delta, old[d], n);
        gf256::XorInto(delta, now[d], n);
        parity::ApplyDelta(static_cast<int>(d), delta, n, p, q);
      }
    } else if (p || q) {
      parity::Compute(now, n, p ? p : alloc(), q);
    }
    for (size_t d = 0; d < dd; ++d) {
      const int m = l.DataMember(g.stripe, static_cast<int>(d));
      if (has(g.write_mask, m)) std::memcpy(writes_.At(m, mo), now[d], n);
    }
  }

  ExtentSet reads_, writes_;
  std::vector<Seg> segs_;
  uint64_t off_ = 0, len_ = 0;
  uint32_t heads_ = 0;                 // stripe_heads held by the window
  bool gated_ = false;                 // the window is pre-read-active
  const uint64_t epoch_ = a_.epoch();  // a power cut empties the pool
};

}  // namespace

void StartParityWrite(RaidArray& a, Request req) {
  std::make_shared<ParityWrite>(a, std::move(req))->Start();
}

}  // namespace storlab
