// Verify: md's "check" and "repair" of member rows. RAID5/6 recompute P
// (and Q) from the data of each page-row and compare; RAID1/10 compare every
// copy of each chunk with the first. "repair" rewrites the parity, or the
// other copies, where they differ (as md's repair does).
#include <algorithm>
#include <cstring>
#include <memory>
#include <tuple>
#include <vector>

#include "sim/layers/raid/parity.h"
#include "sim/layers/raid/rows_op.h"

namespace storlab {
namespace {

class VerifyOp : public RowsOp {
 public:
  VerifyOp(RaidArray& a, uint64_t lo, uint64_t hi, bool repair, VerifyDone done)
      : RowsOp(a, lo, hi), repair_(repair), done_(std::move(done)) {}

 private:
  struct Copies {
    uint64_t len;
    std::vector<RaidLayout::Place> at;  // the first is the reference
  };

  void Plan() override {
    const RaidLayout& l = a_.layout();
    if (l.striped()) {
      for (int m = 0; m < a_.size(); ++m) reads_.Add(m, lo_, hi_ - lo_);
    } else if (l.level() == RaidLevel::kRaid1) {
      Copies c{hi_ - lo_, {}};
      for (int m = 0; m < a_.size(); ++m) {
        c.at.push_back({m, lo_});
        reads_.Add(m, lo_, hi_ - lo_);
      }
      copies_.push_back(std::move(c));
    } else {
      // The chunks whose first copy lies in these rows: each chunk is
      // checked by exactly one step.
      const uint64_t n = static_cast<uint64_t>(l.members()), k = static_cast<uint64_t>(l.copies());
      const uint64_t c0 = (lo_ / l.chunk() * n + k - 1) / k;
      const uint64_t c1 = std::min((hi_ / l.chunk() * n + k - 1) / k, l.capacity() / l.chunk());
      for (uint64_t ch = c0; ch < c1; ++ch) {
        Copies c{l.chunk(), {}};
        for (int j = 0; j < l.copies(); ++j) {
          c.at.push_back(l.Copy(ch, j));
          reads_.Add(c.at.back().member, c.at.back().offset, l.chunk());
        }
        copies_.push_back(std::move(c));
      }
    }
    reads_.Finalize(a_.keeps_data());
    auto me = this->me();
    a_.Issue(reads_, Op::kRead, kBackground, [me](uint64_t failed) { me->OnReads(failed); });
  }

  void OnReads(uint64_t failed) {
    if (failed != 0) {
      // As md's check does: what could not be read is rewritten from the
      // others (after this step lets go of the rows); nothing is compared.
      for (const auto& e : reads_.extents()) {
        if (!e.failed || !a_.on_read_error) continue;
        ++a_.counters().read_errors_corrected;
        a_.on_read_error(e.member, e.offset, e.length);
      }
      return done_(Status(), ticket_, 0);
    }
    if (a_.keeps_data()) {
      if (a_.layout().striped()) {
        CompareParity();
      } else {
        CompareCopies();
      }
    }
    writes_.Finalize(a_.keeps_data());
    for (const auto& [m, off, buf] : fixes_)
      std::memcpy(writes_.At(m, off), buf.data(), buf.size());
    auto me = this->me();
    a_.Issue(writes_, Op::kWrite, kBackground, [me](uint64_t failed) {
      for (int m = 0; m < me->a_.size(); ++m)
        if ((failed >> m) & 1) me->a_.MarkFailed(m);
      me->done_(Status(), me->ticket_, me->mismatched_);
    });
  }

  void Fix(int m, uint64_t off, const uint8_t* data, uint64_t len) {
    if (!repair_) return;
    writes_.Add(m, off, len);
    fixes_.emplace_back(m, off, std::vector<uint8_t>(data, data + len));
  }

  void CompareParity() {
    const RaidLayout& l = a_.layout();
    const uint64_t pg = a_.page();
    std::vector<uint8_t> p(pg), q(pg);
    for (uint64_t off = lo_; off < hi_; off += pg) {
      const uint64_t s = off / l.chunk(), n = std::min(pg, hi_ - off);
      std::vector<const uint8_t*> data;
      data.reserve(l.data_disks());
      for (int d = 0; d < l.data_disks(); ++d) data.push_back(reads_.At(l.DataMember(s, d), off));
      const int pm = l.PMember(s), qm = l.QMember(s);
      parity::Compute(data, n, p.data(), qm >= 0 ? q.data() : nullptr);
      const bool p_bad = std::memcmp(p.data(), reads_.At(pm, off), n) != 0;
      const bool q_bad = qm >= 0 && std::memcmp(q.data(), reads_.At(qm, off), n) != 0;
      if (!p_bad && !q_bad) continue;
      ++mismatched_;
      if (p_bad) Fix(pm, off, p.data(), n);
      if (q_bad) Fix(qm, off, q.data(), n);
    }
  }

  void CompareCopies() {
    const uint64_t pg = a_.page();
    for (const Copies& c : copies_) {
      for (uint64_t at = 0; at < c.len; at += pg) {
        const uint64_t n = std::min(pg, c.len - at);
        const uint8_t* ref = reads_.At(c.at[0].member, c.at[0].offset + at);
        bool bad = false;
        for (size_t j = 1; j < c.at.size(); ++j) {
          if (std::memcmp(ref, reads_.At(c.at[j].member, c.at[j].offset + at), n) == 0) continue;
          bad = true;
          Fix(c.at[j].member, c.at[j].offset + at, ref, n);
        }
        mismatched_ += bad;
      }
    }
  }

  std::shared_ptr<VerifyOp> me() { return std::static_pointer_cast<VerifyOp>(shared_from_this()); }

  bool repair_;
  VerifyDone done_;
  uint64_t mismatched_ = 0;
  std::vector<Copies> copies_;
  std::vector<std::tuple<int, uint64_t, std::vector<uint8_t>>> fixes_;
};

}  // namespace

void Verify(RaidArray& a, uint64_t lo, uint64_t hi, bool repair, VerifyDone done) {
  std::make_shared<VerifyOp>(a, lo, hi, repair, std::move(done))->Start();
}

}  // namespace storlab
