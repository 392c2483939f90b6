// Fuzz target: the FUSE mount's tree mode (sim/serve/vfs/tree_vfs.h under
// control_dir.h's .storlab/), the handlers every kernel request of
// `storlab mount --tree` reaches, with no kernel: on a 1 MiB RAM disk with
// a queue, so ENOSPC comes soon.
//
// Input: a stream of 8-byte operations — op, name, flags, offset, length —
// on five names (and an empty one, one with a slash and ".storlab"):
// create, write, read, truncate, fallocate (every mode), rename (every
// flag), unlink, fsync. A model keeps each file's bytes. Every call must be
// answered exactly once; a refusal must carry an errno the kernel gives for
// that call, and change nothing the model can see; a read must return the
// model's bytes (holes, punched and zeroed ranges as zeros); at the end
// every file reads back whole and, once removed, the device is empty.
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sim/serve/service.h"
#include "sim/serve/vfs/control_dir.h"
#include "sim/serve/vfs/tree_vfs.h"
#include "sim/status_errno.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/serve/serve_test_util.h"

namespace storlab {
namespace {

// One asynchronous answer, checked to come exactly once.
struct Answer {
  std::mutex m;
  std::condition_variable cv;
  int count = 0;
  int err = 0;
  std::vector<uint8_t> data;
  void Done(int e) {
    std::lock_guard<std::mutex> l(m);
    ++count;
    err = e;
    cv.notify_all();
  }
  int Wait() {
    std::unique_lock<std::mutex> l(m);
    cv.wait(l, [&] { return count > 0; });
    FUZZ_CHECK(count == 1, "answered " + std::to_string(count) + " times");
    return err;
  }
};

int Read(Vfs& v, uint64_t ino, uint64_t off, size_t n, std::vector<uint8_t>* out) {
  Answer a;
  v.Read(ino, 0, off, n, [&](Status st, const uint8_t* d, size_t len) {
    if (st.ok()) a.data.assign(d, d + len);
    a.Done(ToErrno(st));
  });
  const int e = a.Wait();
  *out = std::move(a.data);
  return e;
}

int Call(const std::function<void(Vfs::StatusReply)>& call) {
  Answer a;
  call([&](Status st) { a.Done(ToErrno(st)); });
  return a.Wait();
}

// The errnos a call may answer with, besides 0.
bool Allowed(int e, std::initializer_list<int> ok) {
  return std::find(ok.begin(), ok.end(), e) != ok.end();
}

void CheckRead(Vfs& v, uint64_t ino, const std::vector<uint8_t>& model, uint64_t off, size_t n) {
  std::vector<uint8_t> got;
  const int e = Read(v, ino, off, n, &got);
  FUZZ_CHECK(e == 0, "read at " + std::to_string(off) + ": errno " + std::to_string(e));
  const uint64_t want = off >= model.size() ? 0 : std::min<uint64_t>(n, model.size() - off);
  FUZZ_CHECK(got.size() == want, "read at " + std::to_string(off) + " returned " +
                                     std::to_string(got.size()) + " bytes, not " +
                                     std::to_string(want));
  FUZZ_CHECK(want == 0 || std::memcmp(got.data(), model.data() + off, want) == 0,
             "read at " + std::to_string(off) + " returned other bytes than were written");
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
  // The tree as the mount serves it: under .storlab/ (a name it keeps).
  StorlabDir v(**svc, std::make_unique<TreeVfs>(**svc, 0, VfsOptions()), VfsOptions());
  const uint64_t free0 = v.StatFs(kRootIno)->f_bfree;
  const char* names[] = {"a", "b", "c", "d", "e", "", "x/y", ".storlab"};
  std::map<std::string, std::vector<uint8_t>> files;
  std::map<std::string, uint64_t> inos;
  Caller who;
  for (size_t i = 0; i + 8 <= size && i < 8 * 300; i += 8) {
    const uint8_t* p = data + i;
    const std::string name = names[p[1] % 8];
    const bool good = p[1] % 8 < 5;
    uint16_t off16, len16;
    std::memcpy(&off16, p + 4, 2);
    std::memcpy(&len16, p + 6, 2);
    // Offsets up to ~1.5 MiB (past the device), or past the largest file
    // (2^60: every call there is refused, and the model stays small).
    const uint64_t off = (p[2] & 0x80) ? (uint64_t{1} << 60) + 1 + off16 : uint64_t{off16} * 24;
    const size_t n = (p[2] & 0x40) ? size_t{len16} * 16 : len16 % 9000;
    const int op = p[0] % 8;
    if (op == 0) {  // create
      auto c = v.Create(kRootIno, name, 0644, O_RDWR, who);
      FUZZ_CHECK(c.ok() == (good && !files.count(name)),
                 "create " + name + ": " + c.status().ToString());
      if (c.ok()) {
        files[name] = {};
        inos[name] = c->first.st_ino;
      }
      continue;
    }
    if (!files.count(name)) continue;
    const uint64_t ino = inos[name];
    std::vector<uint8_t>& model = files[name];
    if (op == 1) {  // write
      std::vector<uint8_t> d(n);
      for (size_t k = 0; k < n; ++k) d[k] = static_cast<uint8_t>(p[3] + k * 7);
      Answer a;
      size_t wrote = 0;
      v.Write(ino, 0, off, d.data(), n, [&](Result<size_t> r) {
        if (r.ok()) wrote = *r;
        a.Done(ToErrno(r.status()));
      });
      const int e = a.Wait();
      FUZZ_CHECK(e == 0 || Allowed(e, {EINVAL, ENOSPC, EFBIG}), "write: " + std::to_string(e));
      if (e != 0 || n == 0) continue;
      FUZZ_CHECK(wrote == n, "short write");
      if (model.size() < off + n) model.resize(off + n, 0);
      std::copy(d.begin(), d.end(), model.begin() + static_cast<long>(off));
    } else if (op == 2) {  // read
      CheckRead(v, ino, model, off, n);
    } else if (op == 3) {  // truncate
      SetAttrs s;
      s.size = true;
      s.attr.st_size = static_cast<off_t>(off);
      const int e = Call([&](Vfs::StatusReply rep) {
        v.SetAttr(ino, s,
                  [rep = std::move(rep)](Result<struct stat> st) mutable { rep(st.status()); });
      });
      FUZZ_CHECK(e == 0 || Allowed(e, {EINVAL, EFBIG}), "truncate: " + std::to_string(e));
      if (e == 0) model.resize(off, 0);
    } else if (op == 4) {  // fallocate, every mode
      static const int kModes[] = {0,
                                   FALLOC_FL_KEEP_SIZE,
                                   FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                                   FALLOC_FL_PUNCH_HOLE,
                                   FALLOC_FL_ZERO_RANGE,
                                   FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE,
                                   FALLOC_FL_COLLAPSE_RANGE,
                                   FALLOC_FL_INSERT_RANGE};
      const int mode = kModes[p[3] % 8];
      const int e =
          Call([&](Vfs::StatusReply rep) { v.Fallocate(ino, 0, mode, off, n, std::move(rep)); });
      FUZZ_CHECK(e == 0 || Allowed(e, {EINVAL, ENOSPC, EFBIG, EOPNOTSUPP}),
                 "fallocate mode " + std::to_string(mode) + ": " + std::to_string(e));
      if (e != 0) continue;
      const bool keep = mode & FALLOC_FL_KEEP_SIZE;
      const int what = mode & ~FALLOC_FL_KEEP_SIZE;
      FUZZ_CHECK(
          what == 0 || what == FALLOC_FL_ZERO_RANGE || (what == FALLOC_FL_PUNCH_HOLE && keep),
          "fallocate mode " + std::to_string(mode) + " was accepted");
      if (!keep && what != FALLOC_FL_PUNCH_HOLE && model.size() < off + n) model.resize(off + n, 0);
      if (what != 0 && off < model.size())
        std::fill(model.begin() + static_cast<long>(off),
                  model.begin() + static_cast<long>(std::min<uint64_t>(off + n, model.size())), 0);
    } else if (op == 5) {  // rename, with any flag
      const std::string to = names[p[3] % 8];
      static const uint32_t kFlags[] = {0, RENAME_NOREPLACE, RENAME_EXCHANGE, RENAME_WHITEOUT};
      const uint32_t flags = kFlags[p[2] % 4];
      Status st = v.Rename(kRootIno, name, kRootIno, to, flags);
      const bool to_good = p[3] % 8 < 5, exists = files.count(to) > 0;
      const bool refused = !to_good || flags == RENAME_WHITEOUT ||
                           (flags == RENAME_NOREPLACE && exists) ||
                           (flags == RENAME_EXCHANGE && !exists);
      FUZZ_CHECK(st.ok() != refused, "rename " + name + " -> " + to + ": " + st.ToString());
      if (!st.ok() || to == name) continue;
      if (flags == RENAME_EXCHANGE) {
        std::swap(files[name], files[to]);
        std::swap(inos[name], inos[to]);
        continue;
      }
      if (exists) v.Forget(inos[to], 1);
      files[to] = std::move(files[name]);
      inos[to] = inos[name];
      files.erase(name);
      inos.erase(name);
    } else if (op == 6) {  // unlink, and the kernel forgets the inode
      FUZZ_CHECK(v.Unlink(kRootIno, name).ok(), "unlink " + name);
      v.Forget(ino, 1);
      files.erase(name);
      inos.erase(name);
    } else {  // fsync
      FUZZ_CHECK(
          Call([&](Vfs::StatusReply rep) { v.Fsync(ino, 0, p[2] & 1, std::move(rep)); }) == 0,
          "fsync failed");
    }
  }
  for (const auto& [name, bytes] : files) {
    for (uint64_t off = 0; off < bytes.size(); off += 65536)
      CheckRead(v, inos[name], bytes, off, 65536);
    FUZZ_CHECK(v.Unlink(kRootIno, name).ok(), "unlink " + name);
    v.Forget(inos[name], 1);
  }
  FUZZ_CHECK(v.StatFs(kRootIno)->f_bfree == free0, "blocks leaked: the empty tree has " +
                                                       std::to_string(v.StatFs(kRootIno)->f_bfree) +
                                                       " free, not " + std::to_string(free0));
  (*svc)->Shutdown();
}

}  // namespace
}  // namespace storlab

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  storlab::Run(data, size);
  return 0;
}
