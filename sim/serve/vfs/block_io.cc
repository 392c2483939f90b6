#include "sim/serve/vfs/block_io.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <utility>

#include "sim/round.h"
#include "sim/serve/vfs/concurrent_join.h"

namespace storlab {
namespace {

constexpr int kChunksInFlight = 4;
// Zeros for the partial blocks of a Zero (a logical block is at most 64 KiB).
const uint8_t kZeros[65536] = {};

}  // namespace

// A request split into chunks of at most max_block, a few in flight. Each
// Pump() call holds one reference (the starter's, or a chunk's answer's)
// and gives it back when it can issue no more; the last one answers and
// deletes: nothing touches the object after that, whichever thread it is.
struct BlockIo::Chunked {
  Session* session = nullptr;
  Op op = Op::kRead;
  uint32_t flags = 0;
  uint64_t next = 0, end = 0, max = 0;
  uint8_t* data = nullptr;  // advances with `next`; nullptr: none
  std::mutex mu;
  int in_flight = 0;
  int refs = 1;  // the starter's Pump
  Status first;
  Done done;

  void Pump() {
    for (;;) {
      ExportRequest r;
      {
        std::lock_guard<std::mutex> l(mu);
        if (next >= end || !first.ok() || in_flight >= kChunksInFlight) {
          if (--refs > 0) return;  // an answer still to come pumps again
          break;
        }
        r = ExportRequest{.op = op,
                          .flags = flags,
                          .offset = next,
                          .length = std::min(max, end - next),
                          .data = data};
        if (data) data += r.length;
        next += r.length;
        ++in_flight;
        ++refs;  // the answer's
      }
      session->Submit(r, [this](Status st) {
        {
          std::lock_guard<std::mutex> l(mu);
          --in_flight;
          if (!st.ok() && first.ok()) first = std::move(st);
        }
        Pump();
      });
    }
    Done d = std::move(done);
    Status st = std::move(first);
    delete this;
    d(std::move(st));
  }
};

BlockIo::BlockIo(Session& session, const ExportInfo& info) : session_(session), info_(info) {}

Status BlockIo::Check(uint64_t offset, uint64_t length) const {
  if (offset > info_.size || length > info_.size - offset) {
    return Status::OutOfRange(info_.name + ": [" + std::to_string(offset) + ", +" +
                              std::to_string(length) + ") is outside the device's " +
                              std::to_string(info_.size) + " bytes");
  }
  return Status();
}

void BlockIo::Submit(Op op, uint32_t flags, uint64_t offset, uint64_t length, uint8_t* data,
                     Done done) {
  if (length <= info_.max_block) {
    session_.Submit(
        ExportRequest{.op = op, .flags = flags, .offset = offset, .length = length, .data = data},
        std::move(done));
    return;
  }
  auto* c = new Chunked;
  c->session = &session_;
  c->op = op;
  c->flags = flags;
  c->next = offset;
  c->end = offset + length;
  c->max = info_.max_block;
  c->data = data;
  c->done = std::move(done);
  c->Pump();  // the last reference deletes c
}

void BlockIo::Read(uint64_t offset, uint64_t length, uint8_t* buf, Done done) {
  if (Status st = Check(offset, length); !st.ok() || length == 0) return done(st);
  const uint64_t b = block();
  const uint64_t a0 = RoundDown(offset, b), a1 = RoundUp(offset + length, b);
  if (a0 == offset && a1 == offset + length)
    return Submit(Op::kRead, 0, offset, length, buf, std::move(done));
  // Partial blocks: read the whole blocks into a bounce buffer.
  struct Bounce {
    std::unique_ptr<uint8_t[]> tmp;
    uint8_t* buf;
    uint64_t skip, length;
    Done done;
  };
  auto* p =
      new Bounce{std::make_unique<uint8_t[]>(a1 - a0), buf, offset - a0, length, std::move(done)};
  Submit(Op::kRead, 0, a0, a1 - a0, p->tmp.get(), [p](Status st) {
    if (st.ok()) std::memcpy(p->buf, p->tmp.get() + p->skip, p->length);
    Done d = std::move(p->done);
    delete p;
    d(std::move(st));
  });
}

void BlockIo::Write(uint64_t offset, uint64_t length, const uint8_t* buf, uint32_t flags,
                    uint32_t fresh_block, Done done) {
  if (Status st = Check(offset, length); !st.ok() || length == 0) return done(st);
  const uint64_t b = block();
  if (fresh_block % b != 0) fresh_block = 0;
  const uint64_t unit = fresh_block ? fresh_block : b;
  const uint64_t p0 = RoundDown(offset, unit);
  const uint64_t p1 = std::min(RoundUp(offset + length, unit), RoundUp(info_.size, b));
  const bool exclusive = p0 != offset || p1 != offset + length;
  locks_.Acquire(p0, p1, exclusive,
                 [this, offset, length, buf, flags, fresh_block,
                  done = std::move(done)](RwRangeLock::Held held) mutable {
                   WriteLocked(held, offset, length, buf, flags, fresh_block, std::move(done));
                 });
}

void BlockIo::WriteLocked(RwRangeLock::Held held, uint64_t offset, uint64_t length,
                          const uint8_t* buf, uint32_t flags, uint32_t fresh_block, Done done) {
  if (!held.exclusive) {
    return Submit(Op::kWrite, flags, offset, length, const_cast<uint8_t*>(buf),
                  [this, held, done = std::move(done)](Status st) mutable {
                    locks_.Release(held);
                    done(std::move(st));
                  });
  }
  // Read-modify-write of [held.begin, held.end): the partial end blocks are
  // read (or, in fresh space, zero), the new bytes copied over them.
  struct Rmw {
    BlockIo* io;
    RwRangeLock::Held held;
    std::unique_ptr<uint8_t[]> tmp;
    uint32_t flags;
    Done done;
    void Finish(Status st) {
      io->locks_.Release(held);
      Done d = std::move(done);
      delete this;
      d(std::move(st));
    }
    void WriteBack() {
      io->Submit(Op::kWrite, flags, held.begin, held.end - held.begin, tmp.get(),
                 [this](Status st) { Finish(std::move(st)); });
    }
  };
  const uint64_t span = held.end - held.begin;
  auto* r = new Rmw{this, held, std::make_unique<uint8_t[]>(span), flags, std::move(done)};
  const uint64_t skip = offset - held.begin;
  if (fresh_block) {
    std::memset(r->tmp.get(), 0, skip);
    std::memset(r->tmp.get() + skip + length, 0, span - skip - length);
    std::memcpy(r->tmp.get() + skip, buf, length);
    return r->WriteBack();
  }
  const uint64_t b = block();
  // The blocks to read: the first if the write starts inside it, the last
  // if it ends inside it (one read when they are the same block).
  struct Edge {
    uint64_t at;
    bool need;
  };
  Edge head{held.begin, offset != held.begin};
  Edge tail{held.end - b, offset + length != held.end};
  if (head.need && tail.need && tail.at == head.at) tail.need = false;
  const int reads = int(head.need) + int(tail.need);
  auto* join = new ConcurrentJoin(reads, [r, skip, buf, length](Status st) {
    if (!st.ok()) return r->Finish(std::move(st));
    std::memcpy(r->tmp.get() + skip, buf, length);
    r->WriteBack();
  });
  for (const Edge& e : {head, tail}) {
    if (!e.need) continue;
    Submit(Op::kRead, 0, e.at, b, r->tmp.get() + (e.at - held.begin),
           [join](Status st) { join->Arrive(std::move(st)); });
  }
}

void BlockIo::Zero(uint64_t offset, uint64_t length, bool unmap, Done done) {
  if (Status st = Check(offset, length); !st.ok() || length == 0) return done(st);
  const uint64_t b = block();
  const uint64_t end = offset + length;
  const uint64_t m0 = std::min(RoundUp(offset, b), end), m1 = std::max(RoundDown(end, b), m0);
  const bool head = offset < m0, tail = m1 < end, middle = m0 < m1;
  auto* join = new ConcurrentJoin(int(head) + int(tail) + int(middle), std::move(done));
  auto arrive = [join](Status st) { join->Arrive(std::move(st)); };
  if (head) Write(offset, m0 - offset, kZeros, 0, 0, arrive);
  if (tail) Write(m1, end - m1, kZeros, 0, 0, arrive);
  if (!middle) return;
  locks_.Acquire(m0, m1, false, [this, m0, m1, unmap, arrive](RwRangeLock::Held held) {
    const bool trim = unmap && info_.trim;
    Submit(trim ? Op::kTrim : Op::kWriteZeroes, unmap ? 0 : kNoUnmap, m0, m1 - m0, nullptr,
           [this, held, arrive](Status st) mutable {
             locks_.Release(held);
             arrive(std::move(st));
           });
  });
}

void BlockIo::Flush(Done done) {
  session_.Submit(ExportRequest{.op = Op::kFlush}, std::move(done));
}

}  // namespace storlab
