// The vfs tests' helpers: one asynchronous answer awaited (and checked to
// come exactly once), reads, writes and status calls through a Vfs, a
// started service on a ManualClock, random bytes.
#ifndef STORLAB_TESTS_SERVE_VFS_TEST_UTIL_H_
#define STORLAB_TESTS_SERVE_VFS_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sim/random.h"
#include "sim/serve/service.h"
#include "sim/serve/vfs/vfs.h"
#include "sim/status_errno.h"
#include "tests/serve/serve_test_util.h"

namespace storlab::testing {

inline std::string FusefsStack(const std::string& name) {
  const char* d = std::getenv("STORLAB_SOURCE_DIR");
  std::string dir = d ? d : STORLAB_SOURCE_DIR_DEFAULT;
  return dir + "/tests/fusefs/stacks/" + name;
}

// Waits for one asynchronous answer and checks there is exactly one.
struct Answer {
  std::mutex m;
  std::condition_variable cv;
  int count = 0;
  int err = 0;
  std::vector<uint8_t> data;
  size_t written = 0;
  void Done(int e) {
    std::lock_guard<std::mutex> l(m);
    ++count;
    err = e;
    cv.notify_all();
  }
  void Wait() {
    std::unique_lock<std::mutex> l(m);
    ASSERT_TRUE(cv.wait_for(l, std::chrono::seconds(20), [&] { return count > 0; })) << "no answer";
    l.unlock();
    std::this_thread::sleep_for(std::chrono::microseconds(50));
    l.lock();
    EXPECT_EQ(count, 1) << "answered more than once";
  }
};

inline int ReadAt(Vfs& v, uint64_t ino, uint64_t off, size_t n, std::vector<uint8_t>* out) {
  Answer a;
  v.Read(ino, 0, off, n, [&](Status st, const uint8_t* d, size_t len) {
    if (st.ok()) a.data.assign(d, d + len);
    a.Done(ToErrno(st));
  });
  a.Wait();
  *out = a.data;
  return a.err;
}

inline int WriteAt(Vfs& v, uint64_t ino, uint64_t off, const std::vector<uint8_t>& d, size_t* n) {
  Answer a;
  v.Write(ino, 0, off, d.data(), d.size(), [&](Result<size_t> r) {
    if (r.ok()) a.written = *r;
    a.Done(ToErrno(r.status()));
  });
  a.Wait();
  *n = a.written;
  return a.err;
}

inline int StatusCall(const std::function<void(Vfs::StatusReply)>& call) {
  Answer a;
  call([&](Status st) { a.Done(ToErrno(st)); });
  a.Wait();
  return a.err;
}

inline std::unique_ptr<Service> StartService(const std::string& stack, ManualClock& clock) {
  ServiceOptions o;
  o.stack = stack;
  o.clock = &clock;
  auto s = Service::Create(o);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  if (!s.ok()) return nullptr;
  EXPECT_TRUE((*s)->Start().ok());
  return std::move(s).value();
}

inline uint64_t Pick(Random& r, std::initializer_list<uint64_t> v) {
  return *(v.begin() + r.Uniform(v.size()));
}

inline std::vector<uint8_t> Bytes(Random& r, size_t n) {
  std::vector<uint8_t> v(n);
  r.Fill(v.data(), v.size());
  return v;
}

}  // namespace storlab::testing

#endif  // STORLAB_TESTS_SERVE_VFS_TEST_UTIL_H_
