// Regenerate: rebuild chosen members' rows from the others (one rebuild
// step, or the rewrite after a read error). RAID5/6 read every other
// member of the stripe, as md's recovery does, rebuild the lost data with
// P/Q and recompute lost parity from the data; RAID1/10 copy from the first
// current copy.
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "sim/layers/raid/parity.h"
#include "sim/layers/raid/rows_op.h"

namespace storlab {

std::pair<uint64_t, uint64_t> LockSpanOfRows(const RaidLayout& l, uint64_t lo, uint64_t hi) {
  if (l.level() != RaidLevel::kRaid10) return {lo, hi};
  uint64_t first, last, unused;
  l.ChunksInRow(lo / l.chunk(), &first, &unused);
  l.ChunksInRow((hi - 1) / l.chunk(), &unused, &last);
  return {first * l.chunk(), (last + 1) * l.chunk()};
}

namespace {

bool Has(uint64_t mask, int m) { return m >= 0 && ((mask >> m) & 1); }

class RegenerateOp : public RowsOp {
 public:
  RegenerateOp(RaidArray& a, uint64_t targets, uint64_t lo, uint64_t hi, RegenerateDone done)
      : RowsOp(a, lo, hi), targets_(targets), done_(std::move(done)), epoch_(a.epoch()) {}

 private:
  struct StripeJob {
    uint64_t stripe, r0, r1;
    std::vector<int> lost;
    uint64_t read_mask;
  };
  struct CopyJob {
    int target, source;
    uint64_t target_off, source_off, len;
  };

  bool Source(int m, uint64_t off, uint64_t len) const {
    return !Has(targets_ | excluded_, m) && a_.Usable(m, off, len);
  }

  void Plan() override {
    reads_.Reset();
    writes_.Reset();
    stripes_.clear();
    copies_.clear();
    const bool ok = a_.layout().striped() ? PlanStriped() : PlanMirrored();
    if (!ok) return Fail("not enough members hold the data to rebuild from");
    reads_.Finalize(a_.keeps_data());
    writes_.Finalize(a_.keeps_data());
    auto me = this->me();
    a_.Issue(reads_, Op::kRead, kBackground, [me](uint64_t failed) { me->OnReads(failed); });
  }

  bool PlanStriped() {
    const RaidLayout& l = a_.layout();
    const uint64_t c = l.chunk();
    for (uint64_t pos = lo_; pos < hi_;) {
      const uint64_t s = pos / c, r0 = pos % c, r1 = std::min(c, r0 + (hi_ - pos));
      const uint64_t mo = pos, n = r1 - r0;
      StripeJob j{s, r0, r1, {}, 0};
      int parity = 0;
      for (int m = 0; m < a_.size(); ++m) {
        const int d = l.DataIndex(s, m);
        if (Source(m, mo, n)) {
          reads_.Add(m, mo, n);
          j.read_mask |= uint64_t{1} << m;
          parity += d < 0;
        } else if (d >= 0) {
          j.lost.push_back(d);
        }
        if (Has(targets_, m) && a_.member(m).state != RaidArray::State::kFailed) {
          writes_.Add(m, mo, n);
        }
      }
      std::sort(j.lost.begin(), j.lost.end());
      if (j.lost.size() > 2 || static_cast<int>(j.lost.size()) > parity) return false;
      stripes_.push_back(std::move(j));
      pos += n;
    }
    return true;
  }

  bool PlanMirrored() {
    const RaidLayout& l = a_.layout();
    const int n = a_.size();
    for (int t = 0; t < n; ++t) {
      if (!Has(targets_, t) || a_.member(t).state == RaidArray::State::kFailed) continue;
      for (uint64_t pos = lo_; pos < hi_;) {
        uint64_t len = hi_ - pos;
        std::vector<std::pair<int, uint64_t>> sources;  // member, offset
        if (l.level() == RaidLevel::kRaid1) {
          for (int m = 0; m < n; ++m) sources.emplace_back(m, pos);
        } else {
          const uint64_t row = pos / l.chunk(), in = pos % l.chunk();
          len = std::min(len, l.chunk() - in);
          const uint64_t p = row * static_cast<uint64_t>(n) + static_cast<uint64_t>(t);
          const uint64_t chunk = p / static_cast<uint64_t>(l.copies());
          if (chunk * l.chunk() >= l.capacity()) break;  // past the last whole chunk
          for (int j = 0; j < l.copies(); ++j) {
            RaidLayout::Place pl = l.Copy(chunk, j);
            if (pl.member != t) sources.emplace_back(pl.member, pl.offset + in);
          }
        }
        const std::pair<int, uint64_t>* src = nullptr;
        for (const auto& s : sources)
          if (Source(s.first, s.second, len)) {
            src = &s;
            break;
          }
        if (src == nullptr) return false;
        reads_.Add(src->first, src->second, len);
        writes_.Add(t, pos, len);
        copies_.push_back({t, src->first, pos, src->second, len});
        pos += len;
      }
    }
    return true;
  }

  void OnReads(uint64_t failed) {
    if (failed != 0) {
      excluded_ |= failed;  // try the others
      return Plan();
    }
    if (a_.keeps_data()) {
      for (const StripeJob& j : stripes_) ComputeStripe(j);
      for (const CopyJob& j : copies_) {
        std::memcpy(writes_.At(j.target, j.target_off), reads_.At(j.source, j.source_off), j.len);
      }
    }
    auto me = this->me();
    a_.Issue(writes_, Op::kWrite, kBackground, [me](uint64_t failed) {
      for (int m = 0; m < me->a_.size(); ++m)
        if (Has(failed, m)) me->a_.MarkFailed(m);
      me->done_(Status(), me->ticket_);
    });
  }

  void ComputeStripe(const StripeJob& j) {
    const RaidLayout& l = a_.layout();
    const uint64_t mo = j.stripe * l.chunk() + j.r0, n = j.r1 - j.r0;
    const size_t dd = static_cast<size_t>(l.data_disks());
    std::vector<std::unique_ptr<uint8_t[]>> tmp;
    std::vector<uint8_t*> data(dd);
    for (size_t d = 0; d < dd; ++d) {
      const int m = l.DataMember(j.stripe, static_cast<int>(d));
      if (Has(j.read_mask, m)) {
        data[d] = reads_.At(m, mo);
      } else {
        tmp.emplace_back(new uint8_t[n]);
        data[d] = tmp.back().get();
      }
    }
    const int pm = l.PMember(j.stripe), qm = l.QMember(j.stripe);
    if (!j.lost.empty()) {
      parity::Recover(data, j.lost, Has(j.read_mask, pm) ? reads_.At(pm, mo) : nullptr,
                      Has(j.read_mask, qm) ? reads_.At(qm, mo) : nullptr, n);
    }
    const bool want_p = Has(targets_, pm), want_q = Has(targets_, qm);
    std::unique_ptr<uint8_t[]> p, q;
    if (want_p || want_q) {
      p.reset(new uint8_t[n]);
      if (qm >= 0) q.reset(new uint8_t[n]);
      parity::Compute(std::vector<const uint8_t*>(data.begin(), data.end()), n, p.get(), q.get());
    }
    for (int m = 0; m < a_.size(); ++m) {
      if (!Has(targets_, m) || a_.member(m).state == RaidArray::State::kFailed) continue;
      const int d = l.DataIndex(j.stripe, m);
      const uint8_t* src = d >= 0 ? data[static_cast<size_t>(d)] : m == pm ? p.get() : q.get();
      std::memcpy(writes_.At(m, mo), src, n);
    }
  }

  void Fail(const std::string& why) {
    auto me = this->me();
    a_.engine().After(Nanos(0), [me, why] {
      if (me->epoch_ == me->a_.epoch())
        me->done_(Status::IoError(me->a_.name() + ": " + why), me->ticket_);
    });
  }

  std::shared_ptr<RegenerateOp> me() {
    return std::static_pointer_cast<RegenerateOp>(shared_from_this());
  }

  uint64_t targets_;
  RegenerateDone done_;
  uint64_t epoch_;
  uint64_t excluded_ = 0;
  std::vector<StripeJob> stripes_;
  std::vector<CopyJob> copies_;
};

}  // namespace

void Regenerate(RaidArray& a, uint64_t targets, uint64_t lo, uint64_t hi, RegenerateDone done) {
  std::make_shared<RegenerateOp>(a, targets, lo, hi, std::move(done))->Start();
}

}  // namespace storlab
