// READ on RAID0/5/6: each piece from the member holding it, or rebuilt from
// the rest of its stripe row (P, or Q, or both for two lost chunks) when
// that member is failed, not yet recovered there, or returned an error.
#include <cstring>
#include <memory>
#include <vector>

#include "sim/layers/raid/array_op.h"
#include "sim/layers/raid/parity.h"
#include "sim/layers/raid/raid_ops.h"
#include "sim/layers/raid/striped_map.h"

namespace storlab {
namespace {

class StripedRead : public ArrayOp {
 public:
  StripedRead(RaidArray& a, Request req) : ArrayOp(a, std::move(req)), reads_(a.size()) {}

 private:
  struct Rebuilt {
    ChunkPiece piece;
    std::vector<int> lost;  // data indexes to rebuild (piece.d among them)
    bool use_p, use_q;
  };

  uint64_t WindowAlign() const override { return a_.layout().stripe_bytes(); }

  void Window(uint64_t off, uint64_t len) override {
    off_ = off;
    len_ = len;
    if (a_.degraded() || excluded_ != 0) {
      // Reconstruction reads parity: keep writers of these rows out.
      auto [lo, hi] = RowSpan(a_.layout(), off, len, 1);
      Lock(lo, hi, [this] { Plan(); });
    } else {
      Plan();
    }
  }

  void Plan() {
    const RaidLayout& l = a_.layout();
    reads_.Reset();
    direct_.clear();
    rebuilt_.clear();
    bool ok = true;
    ForEachChunkPiece(l, off_, len_, [&](const ChunkPiece& p) {
      const int m = l.DataMember(p.stripe, p.d);
      if (Readable(m, p.member_off(l.chunk()), p.length())) {
        reads_.Add(m, p.member_off(l.chunk()), p.length());
        direct_.push_back(p);
      } else if (!PlanRebuild(p)) {
        ok = false;
      }
    });
    if (!ok) {
      return WindowDone(Status::IoError(a_.name() + ": too many members lost to reconstruct"));
    }
    reads_.Finalize(with_data());
    auto me = std::static_pointer_cast<StripedRead>(self());
    a_.Issue(reads_, Op::kRead, 0, [me](uint64_t failed) { me->OnRead(failed); });
  }

  bool PlanRebuild(const ChunkPiece& p) {
    const RaidLayout& l = a_.layout();
    const uint64_t mo = p.member_off(l.chunk()), n = p.length();
    Rebuilt r{p, {}, false, false};
    for (int j = 0; j < l.data_disks(); ++j)
      if (!Readable(l.DataMember(p.stripe, j), mo, n)) r.lost.push_back(j);
    const int pm = l.PMember(p.stripe), qm = l.QMember(p.stripe);
    const bool p_ok = pm >= 0 && Readable(pm, mo, n);
    const bool q_ok = qm >= 0 && Readable(qm, mo, n);
    if (r.lost.size() == 1) {
      r.use_p = p_ok;
      r.use_q = !p_ok && q_ok;
    } else if (r.lost.size() == 2) {
      r.use_p = r.use_q = p_ok && q_ok;
    }
    if (!r.use_p && !r.use_q) return false;
    for (int j = 0; j < l.data_disks(); ++j) {
      bool lost = false;
      for (int x : r.lost) lost |= x == j;
      if (!lost) reads_.Add(l.DataMember(p.stripe, j), mo, n);
    }
    if (r.use_p) reads_.Add(pm, mo, n);
    if (r.use_q) reads_.Add(qm, mo, n);
    rebuilt_.push_back(std::move(r));
    return true;
  }

  void OnRead(uint64_t failed) {
    if (failed != 0) {
      if (a_.layout().level() == RaidLevel::kRaid0) {
        return WindowDone(Status::IoError(a_.name() + ": member read error (raid0)"));
      }
      NoteReadErrors(failed, reads_);
      return RetryWindow();
    }
    a_.counters().degraded_reads += rebuilt_.size();
    if (with_data()) Deliver();
    WindowDone(Status());
  }

  // Copies what was read, and what was rebuilt, into the client's buffer.
  void Deliver() {
    const RaidLayout& l = a_.layout();
    for (const ChunkPiece& p : direct_) {
      const int m = l.DataMember(p.stripe, p.d);
      std::memcpy(Dest(p.array_off), reads_.At(m, p.member_off(l.chunk())), p.length());
    }
    for (const Rebuilt& r : rebuilt_) {
      const ChunkPiece& p = r.piece;
      const uint64_t mo = p.member_off(l.chunk()), n = p.length();
      std::vector<std::unique_ptr<uint8_t[]>> tmp;
      std::vector<uint8_t*> data(static_cast<size_t>(l.data_disks()));
      for (int j = 0; j < l.data_disks(); ++j) {
        bool lost = false;
        for (int x : r.lost) lost |= x == j;
        if (lost) {
          tmp.emplace_back(new uint8_t[n]);
          data[static_cast<size_t>(j)] = tmp.back().get();
        } else {
          data[static_cast<size_t>(j)] = reads_.At(l.DataMember(p.stripe, j), mo);
        }
      }
      const uint8_t* pp = r.use_p ? reads_.At(l.PMember(p.stripe), mo) : nullptr;
      const uint8_t* qq = r.use_q ? reads_.At(l.QMember(p.stripe), mo) : nullptr;
      parity::Recover(data, r.lost, pp, qq, n);
      std::memcpy(Dest(p.array_off), data[static_cast<size_t>(p.d)], n);
    }
  }

  ExtentSet reads_;
  std::vector<ChunkPiece> direct_;  // read from the member holding them
  std::vector<Rebuilt> rebuilt_;
  uint64_t off_ = 0, len_ = 0;
};

}  // namespace

void StartStripedRead(RaidArray& a, Request req) {
  std::make_shared<StripedRead>(a, std::move(req))->Start();
}

}  // namespace storlab
