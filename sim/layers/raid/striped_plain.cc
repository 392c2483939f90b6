// The striped requests that need no parity arithmetic: RAID0 writes,
// write-zeroes and trims (each chunk straight to its member), and trims of
// whole RAID5/6 stripes.
#include <cstring>
#include <memory>

#include "sim/layers/raid/array_op.h"
#include "sim/layers/raid/raid_ops.h"
#include "sim/layers/raid/striped_map.h"

namespace storlab {
namespace {

class Raid0Write : public ArrayOp {
 public:
  Raid0Write(RaidArray& a, Request req) : ArrayOp(a, std::move(req)), writes_(a.size()) {}

 private:
  uint64_t WindowAlign() const override { return a_.layout().stripe_bytes(); }

  void Window(uint64_t off, uint64_t len) override {
    const RaidLayout& l = a_.layout();
    const bool copy = req_.op == Op::kWrite && with_data();
    writes_.Reset();
    ForEachChunkPiece(l, off, len, [&](const ChunkPiece& p) {
      writes_.Add(p.d, p.member_off(l.chunk()), p.length());
    });
    writes_.Finalize(copy);
    if (copy) {
      ForEachChunkPiece(l, off, len, [&](const ChunkPiece& p) {
        std::memcpy(writes_.At(p.d, p.member_off(l.chunk())), Source(p.array_off), p.length());
      });
    }
    auto me = self();
    const uint32_t flags = req_.op == Op::kWrite ? write_flags() : (req_.flags & kNoUnmap);
    a_.Issue(writes_, req_.op, flags, [me, this](uint64_t failed) {
      WindowDone(failed ? Status::IoError(a_.name() + ": member write error (raid0)") : Status());
    });
  }

  ExtentSet writes_;
};

class ParityTrim : public ArrayOp {
 public:
  ParityTrim(RaidArray& a, Request req) : ArrayOp(a, std::move(req)), trims_(a.size()) {}

 private:
  uint64_t WindowAlign() const override { return a_.layout().stripe_bytes(); }

  void Window(uint64_t off, uint64_t len) override {
    // Only whole stripes can be discarded and keep parity right; a trim
    // promises nothing about the rest.
    const RaidLayout& l = a_.layout();
    const uint64_t sb = l.stripe_bytes();
    const uint64_t s0 = (off + sb - 1) / sb, s1 = (off + len) / sb;
    if (s0 >= s1) return WindowDone(Status());
    const uint64_t lo = s0 * l.chunk(), hi = s1 * l.chunk();
    Lock(lo, hi, [this, lo, hi] {
      // A recovering member is trimmed up to its frontier; the rest it gets
      // from the rebuild (zeros, rebuilt from the trimmed stripes).
      trims_.Reset();
      for (int m = 0; m < a_.size(); ++m) {
        const uint64_t n = a_.UsablePrefix(m, lo, hi - lo);
        if (n > 0) trims_.Add(m, lo, n);
      }
      trims_.Finalize(false);
      auto me = self();
      a_.Issue(trims_, Op::kTrim, 0, [me, this](uint64_t failed) {
        NoteWriteErrors(failed);
        WindowDone(a_.failed() ? Status::IoError(a_.name() + ": array has failed") : Status());
      });
    });
  }

  ExtentSet trims_;
};

}  // namespace

void StartRaid0Write(RaidArray& a, Request req) {
  std::make_shared<Raid0Write>(a, std::move(req))->Start();
}

void StartParityTrim(RaidArray& a, Request req) {
  std::make_shared<ParityTrim>(a, std::move(req))->Start();
}

}  // namespace storlab
