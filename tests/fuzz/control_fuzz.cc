// Fuzz target: the control channel of the exports (sim/serve/control.h and
// Service::Control), on a running service over a small RAID1 stack.
//
// Input: text, one command per line (at most 64 lines). Every line must get
// exactly one line of answer, of a known kind; a JSON answer (stats) must
// parse; and a bad command must change nothing: data written with FUA
// before the commands reads back the same after them — unless a `fail`,
// `detach` or `media-error` was accepted, in which case the mirror may
// answer EIO, but never wrong data (and wrong data only after a `corrupt`).
// An answer quotes the line only short and printable (FUZZ_CHECK_MESSAGE).
#include <cstdint>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sim/serve/service.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/serve/serve_test_util.h"

namespace storlab {
namespace {

bool KnownAnswer(const std::string& a) {
  for (const char* p : {"error: ", "commands:", "ok: no command", "power-cut: ", "flush: ok",
                        "fail: '", "replace: '", "reset-stats: ok", "detach: '", "attach: '",
                        "delay: requests", "media-error: ", "corrupt: the ", "ignore-fua: '"})
    if (a.rfind(p, 0) == 0) return true;
  return false;
}

void Run(std::string_view input) {
  static testing::ManualClock clock(/*auto_jump=*/true);
  ServiceOptions o;
  o.stack = testing::ServeStack("mirror.toml");
  o.clock = &clock;
  o.compensate.mode = CompensationOptions::Mode::kOff;  // no calibration: fast start
  auto svc = Service::Create(o);
  FUZZ_CHECK(svc.ok(), svc.status().ToString());
  FUZZ_CHECK((*svc)->Start().ok(), "start");
  auto md = (*svc)->OpenSession(0);
  std::vector<uint8_t> pattern(8192), back(8192);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(i * 31 + 7);
  ExportRequest w;
  w.op = Op::kWrite;
  w.flags = kFua;
  w.offset = 65536;
  w.length = pattern.size();
  w.data = pattern.data();
  FUZZ_CHECK(md->Do(w).ok(), "the first write");

  bool failed_any = false, corrupted_any = false;
  size_t lines = 0;
  while (!input.empty() && lines++ < 64) {
    size_t nl = input.find('\n');
    std::string_view line = input.substr(0, nl);
    input = nl == std::string_view::npos ? std::string_view() : input.substr(nl + 1);
    std::string a = (*svc)->Control(line);
    FUZZ_CHECK(a.find('\n') == std::string::npos, "an answer of more than one line: " + a);
    if (a.rfind("{", 0) == 0) {
      FUZZ_CHECK(nlohmann::json::accept(a), "stats that are not JSON");
      continue;
    }
    FUZZ_CHECK(KnownAnswer(a), "an unknown answer: " + a);
    FUZZ_CHECK_MESSAGE(a);  // what it quotes of the line, Quoted()
    for (const char* p : {"fail: '", "detach: '", "media-error: "})
      if (a.rfind(p, 0) == 0) failed_any = true;
    if (a.rfind("corrupt: ", 0) == 0) corrupted_any = true;
  }
  ExportRequest r = w;
  r.op = Op::kRead;
  r.flags = 0;
  r.data = back.data();
  Status st = md->Do(r);
  if (st.ok()) {
    FUZZ_CHECK(back == pattern || corrupted_any,
               "the mirror returned wrong data after the commands");
  } else {
    FUZZ_CHECK(failed_any && st.code() == Status::Code::kIoError,
               "the mirror failed without a fail command: " + st.ToString());
  }
  (*svc)->Shutdown();
}

}  // namespace
}  // namespace storlab

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  storlab::Run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
