// FUZZ_CHECK: an invariant a fuzz target asserts about the code under test.
//
// On failure it prints the condition and a message to stderr and aborts, so
// libFuzzer saves the input as a crash (with its reproducer) and the replay
// test of the regression corpus fails. Unlike assert() it stays on in release
// builds. Thread-compatible (it only writes to stderr).
#ifndef STORLAB_TESTS_FUZZ_FUZZ_CHECK_H_
#define STORLAB_TESTS_FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>
#include <string>

namespace storlab::fuzz {

[[noreturn]] inline void CheckFailed(const char* file, int line, const char* cond,
                                     const std::string& msg) {
  std::fprintf(stderr, "%s:%d: invariant violated: %s\n  %s\n", file, line, cond, msg.c_str());
  std::abort();
}

// "1, 2, 3" for messages.
template <typename Container>
std::string Join(const Container& values) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : ", ") + std::to_string(v);
  return out;
}

}  // namespace storlab::fuzz

// An error message about hostile input quotes it only short and printable
// (sim/quoted.h): no control characters but newlines, and bounded however
// large the input (a 1 MB value was once echoed whole, a line of
// /etc/shadow printed, a list of 20,000 names given in full).
#define FUZZ_CHECK_MESSAGE(msg)                                                                 \
  do {                                                                                          \
    const std::string& m_ = (msg);                                                              \
    FUZZ_CHECK(m_.size() <= 4096, "an error message of " + std::to_string(m_.size()) +          \
                                      " bytes: " + m_.substr(0, 300));                          \
    for (unsigned char c_ : m_) {                                                               \
      FUZZ_CHECK(c_ >= 0x20 || c_ == '\n', "an error message with a control character: " + m_); \
    }                                                                                           \
  } while (0)

// REQUIRES: `msg` is an expression convertible to std::string; evaluated only
// on failure.
#define FUZZ_CHECK(cond, msg)                                                    \
  do {                                                                           \
    if (!(cond)) ::storlab::fuzz::CheckFailed(__FILE__, __LINE__, #cond, (msg)); \
  } while (0)

#endif  // STORLAB_TESTS_FUZZ_FUZZ_CHECK_H_
