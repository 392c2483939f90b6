// A blktrace file encoder for tests: blk_io_trace records in either byte
// order (layout: fio's blktrace_api.h, see workloads/fio/blktrace_read.cc),
// and a sample trace with every kind of event the reader sorts.
#ifndef STORLAB_TESTS_WORKLOADS_BLKTRACE_ENCODE_H_
#define STORLAB_TESTS_WORKLOADS_BLKTRACE_ENCODE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace storlab::fio::testing {

// One blk_io_trace record.
struct Rec {
  uint32_t magic = 0x65617407, seq = 0;
  uint64_t time = 0, sector = 0;
  uint32_t bytes = 0, action = 0, pid = 1, device = (8u << 20) | 16u, cpu = 0;
  uint16_t error = 0, pdu_len = 0;
};

inline void Put(std::string* s, uint64_t v, int n, bool big) {
  for (int i = 0; i < n; ++i) {
    const int shift = 8 * (big ? n - 1 - i : i);
    s->push_back(static_cast<char>((v >> shift) & 0xff));
  }
}

inline std::string Encode(const std::vector<Rec>& recs, bool big) {
  std::string s;
  for (const Rec& r : recs) {
    Put(&s, r.magic, 4, big);
    Put(&s, r.seq, 4, big);
    Put(&s, r.time, 8, big);
    Put(&s, r.sector, 8, big);
    Put(&s, r.bytes, 4, big);
    Put(&s, r.action, 4, big);
    Put(&s, r.pid, 4, big);
    Put(&s, r.device, 4, big);
    Put(&s, r.cpu, 4, big);
    Put(&s, r.error, 2, big);
    Put(&s, r.pdu_len, 2, big);
    s.append(r.pdu_len, 'x');
  }
  return s;
}

// blktrace_api.h's action (BLK_TA_*) and category (BLK_TC_*) bits: prefixed, so
// that they do not hide fio's kRead/kWrite (thread_stat.h) in a test file of
// storlab::fio::testing built in the same unity batch.
constexpr uint32_t kTaQueue = 1, kTaComplete = 8, kTaIssue = 7;
constexpr uint32_t Act(uint32_t ta, uint32_t tc) { return ta | (tc << 16); }
constexpr uint32_t kTcRead = 1, kTcWrite = 2, kTcFlush = 4, kTcNotify = 1u << 10,
                   kTcDiscard = 1u << 13;

inline std::vector<Rec> SampleTrace() {
  std::vector<Rec> v;
  auto add = [&](uint64_t time, uint32_t act, uint64_t sector, uint32_t bytes) {
    Rec r;
    r.time = time;
    r.action = act;
    r.sector = sector;
    r.bytes = bytes;
    v.push_back(r);
  };
  Rec notify;
  notify.action = Act(0, kTcNotify);  // BLK_TN_PROCESS, with a name as payload
  notify.pdu_len = 6;
  v.push_back(notify);
  add(1000000, Act(kTaQueue, kTcRead), 8, 4096);
  add(1500000, Act(kTaQueue, kTcRead), 16, 4096);  // two queued: depth 2
  add(1600000, Act(kTaIssue, kTcRead), 8, 4096);
  add(2000000, Act(kTaComplete, kTcRead), 8, 4096);
  add(3000000, Act(kTaQueue, kTcWrite), 2048, 8192);
  add(3500000, Act(kTaQueue, kTcWrite | kTcFlush), 0, 0);
  add(4000000, Act(kTaQueue, kTcWrite | kTcDiscard), 4096, 4096);
  add(4100000, Act(kTaQueue, kTcWrite), 100, 0);  // empty: skipped, as fio does
  return v;
}

}  // namespace storlab::fio::testing

#endif  // STORLAB_TESTS_WORKLOADS_BLKTRACE_ENCODE_H_
