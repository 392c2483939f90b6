#include "tests/fuzz/stack_check.h"

#include <algorithm>
#include <memory>
#include <string>

#include "sim/node.h"
#include "sim/random.h"
#include "sim/request.h"
#include "tests/fuzz/fuzz_check.h"

namespace storlab::fuzz {
namespace {

// Enough for any sane model to finish a batch of a few requests; a model
// that re-arms a timer forever ("nothing to do schedules nothing") hits it.
constexpr uint64_t kMaxEventsPerBatch = 2'000'000;

bool PowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

std::vector<uint8_t> Pattern(uint64_t len, uint64_t seed) {
  std::vector<uint8_t> v(len);
  Random r(seed);
  r.Fill(v.data(), v.size());
  return v;
}

struct Io {
  Op op = Op::kRead;
  uint64_t off = 0;
  uint64_t len = 0;
  uint32_t flags = 0;
  std::vector<uint8_t> buf;  // a write's data, a read's result
  int completions = 0;
  Status status;
};

class Runner {
 public:
  Runner(Engine& engine, Stack& stack, bool has_data)
      : engine_(engine), stack_(stack), node_(stack.root()), has_data_(has_data) {}

  std::vector<int64_t> Run();

 private:
  // Submits every I/O of the batch at once, runs the engine until idle, and
  // checks that each completed exactly once.
  void RunBatch(std::vector<Io>& batch);
  void Idle();
  Io MakeIo(Op op, uint64_t block, uint64_t blocks, uint32_t flags = 0, uint64_t seed = 0);
  // REQUIRES: io is a completed read.
  void ExpectData(const Io& io, const std::vector<uint8_t>& want, const char* what);
  std::string Where(const Io& io) const {
    return std::string(OpName(io.op)) + " at " + std::to_string(io.off) + "+" +
           std::to_string(io.len) + " on stack '" + stack_.name() + "'";
  }

  Engine& engine_;
  Stack& stack_;
  Node& node_;
  const bool has_data_;
  uint64_t unit_ = 0;  // bytes per block of the workload
  bool in_submit_ = false;
  int64_t last_done_ = 0;
  std::vector<int64_t> times_;
};

void Runner::Idle() {
  uint64_t events = 0;
  while (engine_.Step()) {
    FUZZ_CHECK(++events <= kMaxEventsPerBatch,
               "the engine never goes idle on stack '" + stack_.name() + "' (" +
                   std::to_string(engine_.pending()) + " events pending at " +
                   std::to_string(engine_.now().count()) + " ns)");
  }
}

void Runner::RunBatch(std::vector<Io>& batch) {
  for (Io& io : batch) {
    const int64_t submitted = engine_.now().count();
    auto check = [this, &io, submitted](Status st) {
      FUZZ_CHECK(!in_submit_, Where(io) + " completed inside Submit()");
      FUZZ_CHECK(++io.completions == 1, Where(io) + " completed twice");
      const int64_t now = engine_.now().count();
      FUZZ_CHECK(now >= submitted && now >= last_done_,
                 Where(io) + " completed at " + std::to_string(now) + " ns, before " +
                     std::to_string(std::max(submitted, last_done_)) + " ns");
      last_done_ = now;
      times_.push_back(now);
      io.status = std::move(st);
    };
    Request r{.op = io.op,
              .flags = io.flags,
              .offset = io.off,
              .length = io.len,
              .data = io.buf.empty() ? nullptr : io.buf.data(),
              .done = std::move(check)};
    in_submit_ = true;
    node_.Submit(std::move(r));
    in_submit_ = false;
  }
  Idle();
  for (const Io& io : batch) {
    FUZZ_CHECK(io.completions == 1, Where(io) + " never completed");
    FUZZ_CHECK(io.status.ok() || io.status.code() == Status::Code::kIoError,
               Where(io) + " of a valid request failed: " + io.status.ToString());
  }
}

Io Runner::MakeIo(Op op, uint64_t block, uint64_t blocks, uint32_t flags, uint64_t seed) {
  Io io;
  io.op = op;
  io.off = block * unit_;
  io.len = blocks * unit_;
  io.flags = flags;
  if (op == Op::kWrite) {
    io.buf = Pattern(io.len, seed);
  } else if (op == Op::kRead) {
    io.buf.assign(io.len, 0xA5);  // not zeros: a read must fill every byte
  }
  if (op == Op::kFlush) io.off = io.len = 0;
  return io;
}

void Runner::ExpectData(const Io& io, const std::vector<uint8_t>& want, const char* what) {
  if (!has_data_ || !io.status.ok()) return;
  FUZZ_CHECK(io.buf.size() == want.size(), "internal: compared lengths differ");
  auto [a, b] = std::mismatch(io.buf.begin(), io.buf.end(), want.begin());
  FUZZ_CHECK(a == io.buf.end(), Where(io) + ": byte " + std::to_string(a - io.buf.begin()) +
                                    " differs (expected " + what + ")");
}

std::vector<int64_t> Runner::Run() {
  const Geometry& g = node_.geometry();
  const std::string name = "stack '" + stack_.name() + "'";
  FUZZ_CHECK(g.capacity > 0, name + " has capacity 0");
  FUZZ_CHECK(PowerOfTwo(g.logical_block) && g.logical_block >= 512,
             name + ": logical block " + std::to_string(g.logical_block) +
                 " is not a power of two >= 512");
  FUZZ_CHECK(PowerOfTwo(g.physical_block) && g.physical_block % g.logical_block == 0,
             name + ": physical block " + std::to_string(g.physical_block) +
                 " is not a power-of-two multiple of the logical block");
  FUZZ_CHECK(g.capacity % g.logical_block == 0, name + ": capacity " + std::to_string(g.capacity) +
                                                    " is not a multiple of the logical block");
  unit_ = g.logical_block;
  if (unit_ < 4096 && g.capacity >= 16 * 4096) unit_ = 4096;
  const uint64_t blocks = g.capacity / unit_;

  // Blocks A = [0, a), C = [a, a+1) never written, B = the last block.
  const uint64_t a = std::min<uint64_t>(2, blocks);
  const bool has_bc = blocks >= a + 2;
  const uint64_t b = blocks - 1, c = a;

  std::vector<Io> w = {MakeIo(Op::kWrite, 0, a, 0, 1)};
  if (has_bc) w.push_back(MakeIo(Op::kWrite, b, 1, kFua, 2));
  RunBatch(w);
  std::vector<Io> f = {MakeIo(Op::kFlush, 0, 0)};
  RunBatch(f);

  std::vector<Io> r = {MakeIo(Op::kRead, 0, a)};
  if (has_bc) {
    r.push_back(MakeIo(Op::kRead, b, 1));
    r.push_back(MakeIo(Op::kRead, c, 1));
  }
  RunBatch(r);
  ExpectData(r[0], w[0].buf, "the write");
  if (has_bc) {
    ExpectData(r[1], w[1].buf, "the FUA write");
    ExpectData(r[2], std::vector<uint8_t>(unit_, 0), "zeros: never written");
  }

  // Overwrite A's first block (not flushed), zero the rest of A, trim C.
  std::vector<Io> m = {MakeIo(Op::kWrite, 0, 1, 0, 3)};
  if (a > 1) m.push_back(MakeIo(Op::kWriteZeroes, 1, a - 1));
  if (has_bc && node_.caps().trim) m.push_back(MakeIo(Op::kTrim, c, 1));
  RunBatch(m);
  std::vector<uint8_t> flushed_a = w[0].buf;
  std::vector<uint8_t> new_a = m[0].buf;
  new_a.resize(a * unit_, 0);
  std::vector<Io> r2 = {MakeIo(Op::kRead, 0, a)};
  if (has_bc) r2.push_back(MakeIo(Op::kRead, c, 1));
  RunBatch(r2);
  ExpectData(r2[0], new_a, "the overwrite, then zeros");
  if (has_bc) ExpectData(r2[1], std::vector<uint8_t>(unit_, 0), "zeros: trimmed, never written");

  // Power cut: FUA'd and flushed data survive; A is old or new block by block.
  stack_.PowerCut();
  std::vector<Io> r3 = {MakeIo(Op::kRead, 0, a)};
  if (has_bc) r3.push_back(MakeIo(Op::kRead, b, 1));
  RunBatch(r3);
  if (has_data_ && r3[0].status.ok() && node_.caps().honors_flush) {
    const uint64_t lb = g.logical_block;
    for (uint64_t off = 0; off < a * unit_; off += lb) {
      auto at = [off](const std::vector<uint8_t>& v) { return v.begin() + off; };
      bool is_old = std::equal(at(r3[0].buf), at(r3[0].buf) + lb, at(flushed_a));
      bool is_new = std::equal(at(r3[0].buf), at(r3[0].buf) + lb, at(new_a));
      FUZZ_CHECK(is_old || is_new, Where(r3[0]) + ": after a power cut, the block at " +
                                       std::to_string(off) + " is neither flushed nor newer data");
    }
  }
  if (has_bc && (node_.caps().honors_fua || node_.caps().honors_flush)) {
    ExpectData(r3[1], w[1].buf, "the FUA'd and flushed write, after a power cut");
  }

  // The stack works after the cut.
  std::vector<Io> w4 = {MakeIo(Op::kWrite, 0, 1, kFua, 4)};
  RunBatch(w4);
  std::vector<Io> r4 = {MakeIo(Op::kRead, 0, 1)};
  RunBatch(r4);
  ExpectData(r4[0], w4[0].buf, "the write after the power cut");
  return times_;
}

}  // namespace

std::vector<int64_t> CheckStack(Engine& engine, Stack& stack, bool has_data) {
  return Runner(engine, stack, has_data).Run();
}

}  // namespace storlab::fuzz
