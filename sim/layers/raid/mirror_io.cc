// READ, WRITE, WRITE ZEROES and TRIM on RAID1 and RAID10.
//
// A read goes to one copy of each piece (the whole request on RAID1, each
// chunk on RAID10), chosen as md's read_balance() does: a copy whose head
// is where this read starts (a sequential stream stays on its disk); else,
// on solid-state members, the copy with the fewest requests pending; else
// the nearest head, ties broken by fewer pending requests, then by the
// lower member index. A failed read is retried on another copy and the bad
// range rewritten afterwards. Writes go to every copy that holds current
// data (a recovering member up to its frontier).
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "sim/layers/raid/array_op.h"
#include "sim/layers/raid/raid_ops.h"

namespace storlab {
namespace {

struct Copy {
  int member;
  uint64_t offset;
};
struct Piece {
  uint64_t array_off, len;
  std::vector<Copy> copies;
};

// The pieces of [off, off+len) and their copies.
std::vector<Piece> Pieces(const RaidLayout& l, uint64_t off, uint64_t len) {
  std::vector<Piece> out;
  if (l.level() == RaidLevel::kRaid1) {
    Piece p{off, len, {}};
    for (int m = 0; m < l.members(); ++m) p.copies.push_back({m, off});
    out.push_back(std::move(p));
    return out;
  }
  const uint64_t c = l.chunk();
  for (uint64_t pos = off; pos < off + len;) {
    const uint64_t chunk = pos / c, in = pos % c;
    const uint64_t n = std::min(c - in, off + len - pos);
    Piece p{pos, n, {}};
    for (int j = 0; j < l.copies(); ++j) {
      RaidLayout::Place pl = l.Copy(chunk, j);
      p.copies.push_back({pl.member, pl.offset + in});
    }
    out.push_back(std::move(p));
    pos += n;
  }
  return out;
}

class MirrorRead : public ArrayOp {
 public:
  MirrorRead(RaidArray& a, Request req) : ArrayOp(a, std::move(req)), reads_(a.size()) {}

 private:
  uint64_t WindowAlign() const override { return a_.layout().chunk(); }

  void Window(uint64_t off, uint64_t len) override {
    reads_.Reset();
    chosen_.clear();
    for (const Piece& p : Pieces(a_.layout(), off, len)) {
      const Copy* c = Balance(p);
      if (c == nullptr) {
        return WindowDone(Status::IoError(a_.name() + ": no copy left to read"));
      }
      reads_.Add(c->member, c->offset, p.len);
      chosen_.push_back({p.array_off, p.len, {*c}});
    }
    reads_.Finalize(with_data());
    auto me = std::static_pointer_cast<MirrorRead>(self());
    a_.Issue(reads_, Op::kRead, 0, [me](uint64_t failed) { me->OnRead(failed); });
  }

  const Copy* Balance(const Piece& p) const {
    const Copy* best = nullptr;
    bool rotational = false;
    for (const Copy& c : p.copies) {
      if (!Readable(c.member, c.offset, p.len)) continue;
      const auto& mb = a_.member(c.member);
      if (mb.head == c.offset) return &c;  // sequential: stay on this disk
      rotational |= mb.node->caps().rotational;
    }
    uint64_t best_dist = 0;
    uint32_t best_pending = 0;
    for (const Copy& c : p.copies) {
      if (!Readable(c.member, c.offset, p.len)) continue;
      const auto& mb = a_.member(c.member);
      const uint64_t dist = mb.head > c.offset ? mb.head - c.offset : c.offset - mb.head;
      bool better;
      if (best == nullptr) {
        better = true;
      } else if (rotational) {
        better = dist < best_dist || (dist == best_dist && mb.in_flight < best_pending);
      } else {
        better = mb.in_flight < best_pending;
      }
      if (better) {
        best = &c;
        best_dist = dist;
        best_pending = mb.in_flight;
      }
    }
    return best;
  }

  void OnRead(uint64_t failed) {
    if (failed != 0) {
      NoteReadErrors(failed, reads_);
      return RetryWindow();
    }
    if (with_data()) {
      for (const Piece& p : chosen_) {
        std::memcpy(Dest(p.array_off), reads_.At(p.copies[0].member, p.copies[0].offset), p.len);
      }
    }
    WindowDone(Status());
  }

  ExtentSet reads_;
  std::vector<Piece> chosen_;  // each with the one copy read
};

class MirrorWrite : public ArrayOp {
 public:
  MirrorWrite(RaidArray& a, Request req) : ArrayOp(a, std::move(req)), writes_(a.size()) {}

 private:
  uint64_t WindowAlign() const override { return a_.layout().chunk(); }

  void Window(uint64_t off, uint64_t len) override {
    // Copies must not diverge, and a rebuild must not copy a range while it
    // is being written: hold the rows.
    Lock(off, off + len, [this, off, len] { Plan(off, len); });
  }

  void Plan(uint64_t off, uint64_t len) {
    writes_.Reset();
    pieces_ = Pieces(a_.layout(), off, len);
    for (Piece& p : pieces_) {
      std::vector<Copy> kept;
      for (const Copy& c : p.copies) {
        const uint64_t n = a_.UsablePrefix(c.member, c.offset, p.len);
        if (n == 0) continue;
        writes_.Add(c.member, c.offset, n);
        kept.push_back(c);
      }
      if (kept.empty()) return WindowDone(Status::IoError(a_.name() + ": no copy left to write"));
      p.copies = std::move(kept);
    }
    const bool copy = req_.op == Op::kWrite && with_data();
    writes_.Finalize(copy);
    if (copy) {
      for (const Piece& p : pieces_) {
        for (const Copy& c : p.copies) {
          const uint64_t n = a_.UsablePrefix(c.member, c.offset, p.len);
          std::memcpy(writes_.At(c.member, c.offset), Source(p.array_off), n);
        }
      }
    }
    const uint32_t flags = req_.op == Op::kWrite ? write_flags() : (req_.flags & kNoUnmap);
    auto me = std::static_pointer_cast<MirrorWrite>(self());
    a_.Issue(writes_, req_.op, flags, [me](uint64_t failed) {
      me->NoteWriteErrors(failed);
      me->WindowDone(me->a_.failed() ? Status::IoError(me->a_.name() + ": array has failed")
                                     : Status());
    });
  }

  ExtentSet writes_;
  std::vector<Piece> pieces_;
};

}  // namespace

void StartMirrorRead(RaidArray& a, Request req) {
  std::make_shared<MirrorRead>(a, std::move(req))->Start();
}

void StartMirrorWrite(RaidArray& a, Request req) {
  std::make_shared<MirrorWrite>(a, std::move(req))->Start();
}

}  // namespace storlab
