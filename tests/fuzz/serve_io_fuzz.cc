// Fuzz target: the exports' request path (Service / Session, what every NBD
// and FUSE request goes through), on a small RAM disk with a queue.
//
// Input: a stream of 12-byte requests — op, flags, offset (in 512-byte
// units, or raw bytes when the flag says so), length — sent through
// Session::Do and, every other one, Session::Submit. Every request must be
// answered exactly once; its status must be the one its shape calls for
// (out of range, misaligned, oversized, fast zero on a disk without one);
// reads must return what a shadow copy of the disk holds (trimmed ranges:
// zeros or the old data).
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "sim/serve/service.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/serve/serve_test_util.h"

namespace storlab {
namespace {

constexpr uint64_t kSize = 1 << 20;  // the test stack's disk

Status Expected(const ExportRequest& r) {
  const bool payload = r.op == Op::kWrite || (r.op == Op::kRead && r.data != nullptr);
  if (payload && r.length > (32u << 20)) return Status::InvalidArgument("");
  if (r.op == Op::kWriteZeroes && r.fast_zero) return Status::NotSupported("");
  if (r.op == Op::kFlush) return Status();
  if (r.length == 0 || r.offset % 512 || r.length % 512) return Status::InvalidArgument("");
  if (r.offset > kSize || r.length > kSize - r.offset) return Status::OutOfRange("");
  return Status();
}

void Run(const uint8_t* data, size_t size) {
  static testing::ManualClock clock(/*auto_jump=*/true);
  ServiceOptions o;
  o.stack = testing::ServeStack("small-ram.toml");
  o.clock = &clock;
  o.compensate.mode = CompensationOptions::Mode::kOff;
  auto svc = Service::Create(o);
  FUZZ_CHECK(svc.ok(), svc.status().ToString());
  FUZZ_CHECK((*svc)->Start().ok(), "start");
  auto s = (*svc)->OpenSession(0);
  std::vector<uint8_t> shadow(kSize, 0), buf;
  std::vector<bool> maybe_old(kSize / 512, false);  // trimmed: zeros or old
  for (size_t i = 0; i + 12 <= size && i < 12 * 200; i += 12) {
    const uint8_t* p = data + i;
    ExportRequest r;
    r.op = static_cast<Op>(p[0] % 5);
    r.fast_zero = (p[1] & 1) != 0 && r.op == Op::kWriteZeroes;
    if (p[1] & 2) r.flags |= kFua;
    uint32_t off, len;
    std::memcpy(&off, p + 4, 4);
    std::memcpy(&len, p + 8, 4);
    r.offset = (p[1] & 4) ? off % (kSize + 8192) : (off % (kSize / 512 + 16)) * 512;
    r.length = (p[1] & 8) ? len : (len % 256) * 512;
    if (p[1] & 16) r.length = len % 4096 ? (64u << 20) : 0;  // oversized
    // Reads and writes carry data; one over the maximum is refused before
    // its buffer is touched (a byte stands in for it).
    const bool io = r.op == Op::kRead || r.op == Op::kWrite;
    uint8_t dummy = 0;
    if (io) {
      if (r.length <= (32u << 20)) {
        buf.assign(r.length, 0);
        if (r.op == Op::kWrite)
          for (uint64_t k = 0; k < r.length; ++k) buf[k] = static_cast<uint8_t>(p[2] + k * p[3]);
        r.data = buf.data();
      } else {
        r.data = &dummy;
      }
    }
    const Status want = Expected(r);
    Status got;
    if (p[1] & 32) {
      std::mutex m;
      std::condition_variable cv;
      int answers = 0;
      s->Submit(r, [&](Status st) {
        std::lock_guard<std::mutex> l(m);
        got = st;
        ++answers;
        cv.notify_all();
      });
      std::unique_lock<std::mutex> l(m);
      cv.wait(l, [&] { return answers > 0; });
      FUZZ_CHECK(answers == 1, "answered " + std::to_string(answers) + " times");
    } else {
      got = s->Do(r);
    }
    FUZZ_CHECK(got.code() == want.code(), std::string(OpName(r.op)) + " at " +
                                              std::to_string(r.offset) + " length " +
                                              std::to_string(r.length) + ": " + got.ToString());
    if (!want.ok()) continue;
    const uint64_t first = r.offset / 512, n = r.length / 512;
    switch (r.op) {
      case Op::kWrite:
        std::memcpy(&shadow[r.offset], buf.data(), r.length);
        for (uint64_t b = first; b < first + n; ++b) maybe_old[b] = false;
        break;
      case Op::kWriteZeroes:
        std::memset(&shadow[r.offset], 0, r.length);
        for (uint64_t b = first; b < first + n; ++b) maybe_old[b] = false;
        break;
      case Op::kTrim:
        for (uint64_t b = first; b < first + n; ++b) maybe_old[b] = true;
        break;
      case Op::kRead:
        for (uint64_t b = 0; b < n; ++b) {
          const uint8_t* g = &buf[b * 512];
          const uint8_t* w = &shadow[(first + b) * 512];
          bool same = std::memcmp(g, w, 512) == 0;
          bool zero = true;
          for (int k = 0; k < 512; ++k) zero = zero && g[k] == 0;
          FUZZ_CHECK(same || (maybe_old[first + b] && zero),
                     "block " + std::to_string(first + b) + " read wrong data");
          if (!same) std::memcpy(&shadow[(first + b) * 512], g, 512);  // trim zeroed it
        }
        break;
      case Op::kFlush:
        break;
    }
  }
  (*svc)->Shutdown();
}

}  // namespace
}  // namespace storlab

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  storlab::Run(data, size);
  return 0;
}
