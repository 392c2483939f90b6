// The FUSE mount's request handlers (sim/serve/vfs/), driven directly with
// no kernel: random operations with bad offsets, sizes, names and inodes,
// checked against a model of what the files hold. Every call must answer
// exactly once, with what the model says: data, or the errno the kernel
// would give. The service runs on a ManualClock, so the device's time
// costs no wall time.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/falloc.h>
#include <linux/fs.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>

#include "sim/random.h"
#include "sim/serve/service.h"
#include "sim/serve/vfs/control_dir.h"
#include "sim/serve/vfs/image_vfs.h"
#include "sim/serve/vfs/tree_vfs.h"
#include "sim/status_errno.h"
#include "tests/serve/serve_test_util.h"
#include "tests/serve/vfs_test_util.h"

namespace storlab {
namespace vfs_random_test {

using testing::Answer;
using testing::Bytes;
using testing::FusefsStack;
using testing::ManualClock;
using testing::Pick;
using testing::ReadAt;
using testing::StartService;
using testing::StatusCall;
using testing::WriteAt;

TEST(VfsRandom, ImagesAgainstAModel) {
  ManualClock clock(true);
  auto svc = StartService(FusefsStack("lb4k.toml"), clock);
  ASSERT_TRUE(svc);
  VfsOptions vo;
  StorlabDir v(*svc, std::make_unique<ImageVfs>(*svc, vo), vo);
  const uint64_t img = ImageVfs::kFirstImage;
  const uint64_t cap = svc->exports()[0].size;
  ASSERT_EQ(v.Lookup(kRootIno, "ram.img")->st_ino, img);
  // Offsets in the first MiB, requests up to 1 MiB: the model covers 3 MiB;
  // the rest of the device stays zero.
  std::vector<uint8_t> model(3 << 20, 0);
  std::map<uint64_t, uint8_t> far;  // bytes written near the end
  Random r(42, "images");
  for (int i = 0; i < 1500; ++i) {
    const int op = static_cast<int>(r.Uniform(6));
    const uint64_t off =
        r.Uniform(4) == 0 ? Pick(r, {cap - 1, cap, cap + 7, ~0ull >> 1}) : r.Uniform(1 << 20);
    const size_t n_io = r.Uniform(5) == 0 ? Pick(r, {0, 1, 65537, 1 << 20}) : 1 + r.Uniform(20000);
    const size_t n = n_io;
    if (op == 0) {  // write
      auto d = Bytes(r, n);
      size_t got = 0;
      const int e = WriteAt(v, img, off, d, &got);
      if (off >= cap && n > 0) {
        EXPECT_EQ(e, ENOSPC);
        continue;
      }
      ASSERT_EQ(e, 0) << "write at " << off << " +" << n;
      EXPECT_EQ(got, std::min<uint64_t>(n, cap - off));
      for (size_t k = 0; k < got; ++k) {
        if (off + k < model.size()) {
          model[off + k] = d[k];
        } else {
          far[off + k] = d[k];
        }
      }
    } else if (op == 1) {  // read
      std::vector<uint8_t> got;
      ASSERT_EQ(ReadAt(v, img, off, n, &got), 0);
      const uint64_t want = off >= cap ? 0 : std::min<uint64_t>(n, cap - off);
      ASSERT_EQ(got.size(), want);
      for (size_t k = 0; k < got.size(); ++k) {
        const auto f = far.find(off + k);
        const uint8_t m = off + k < model.size() ? model[off + k] : f == far.end() ? 0 : f->second;
        ASSERT_EQ(got[k], m) << "byte " << off + k;
      }
    } else if (op == 2) {  // fallocate, every mode; sometimes the whole device (split)
      const uint64_t n = r.Uniform(8) == 0 ? cap : n_io;
      const int mode = static_cast<int>(
          Pick(r, {0, FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                   FALLOC_FL_ZERO_RANGE, FALLOC_FL_PUNCH_HOLE, FALLOC_FL_COLLAPSE_RANGE}));
      const int e = StatusCall(
          [&](Vfs::StatusReply rep) { v.Fallocate(img, 0, mode, off, n, std::move(rep)); });
      const bool zeroes = (mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)) != 0;
      if (e == 0 && zeroes) {
        for (uint64_t k = off; k < off + n && k < model.size(); ++k) model[k] = 0;
        for (auto it = far.lower_bound(off); it != far.end() && it->first - off < n;)
          it = far.erase(it);
      }
      if (n == 0) {
        EXPECT_EQ(e, EINVAL);
      }
      if (n > 0 && (mode == FALLOC_FL_COLLAPSE_RANGE || mode == FALLOC_FL_PUNCH_HOLE)) {
        EXPECT_EQ(e, EOPNOTSUPP);
      }
    } else if (op == 3) {  // bad inodes and names
      EXPECT_EQ(v.GetAttr(Pick(r, {0, 5, 15, 17, 1ull << 40})).status().code(),
                Status::Code::kNotFound);
      std::vector<uint8_t> got;
      EXPECT_NE(ReadAt(v, Pick(r, {0, 17, 99}), 0, 10, &got), 0);
      const std::string name = r.Uniform(2) ? std::string(300, 'x') : std::string("a/b");
      EXPECT_FALSE(v.Lookup(kRootIno, name).ok());
      EXPECT_EQ(ToErrno(v.Unlink(kRootIno, "ram.img")), EPERM);
      EXPECT_EQ(ReadAt(v, img, 0, size_t{1} << 40, &got), EINVAL);  // nothing allocated
      size_t n_written = 0;
      std::vector<uint8_t> one(1);
      EXPECT_EQ(WriteAt(v, 999, 0, one, &n_written), ENOENT);
    } else if (op == 4) {  // fsync, truncate (a disk keeps its size)
      EXPECT_EQ(StatusCall([&](Vfs::StatusReply rep) { v.Fsync(img, 0, false, std::move(rep)); }),
                0);
      SetAttrs s;
      s.size = true;
      s.attr.st_size = 0;
      Answer a;
      v.SetAttr(img, s, [&](Result<struct stat> st) {
        EXPECT_TRUE(st.ok());
        if (st.ok()) {
          EXPECT_EQ(static_cast<uint64_t>(st->st_size), cap);
        }
        a.Done(0);
      });
      a.Wait();
    } else {  // control: a bad command changes nothing
      auto o = v.Open(StorlabDir::kControlIno, O_WRONLY);
      ASSERT_TRUE(o.ok());
      Answer a;
      const std::string cmd = r.Uniform(2) ? "flush\n" : "no such\n";
      v.Write(StorlabDir::kControlIno, o->fh, 0, reinterpret_cast<const uint8_t*>(cmd.data()),
              cmd.size(), [&](Result<size_t> n) { a.Done(ToErrno(n.status())); });
      a.Wait();
      EXPECT_EQ(a.err, cmd == "flush\n" ? 0 : EINVAL);
      v.Release(StorlabDir::kControlIno, o->fh);
    }
  }
  auto stats = svc->Stats();
  EXPECT_EQ(stats["service"]["oracle"][0]["read_violations"], 0);
}

TEST(VfsRandom, TreeAgainstAModel) {
  ManualClock clock(true);
  auto svc = StartService(FusefsStack("small.toml"), clock);
  ASSERT_TRUE(svc);
  VfsOptions vo;
  auto tree = std::make_unique<TreeVfs>(*svc, 0, vo);
  TreeVfs* t = tree.get();
  StorlabDir v(*svc, std::move(tree), vo);
  std::map<std::string, std::vector<uint8_t>> files;  // the model: files in the root
  std::map<std::string, uint64_t> inos;
  const char* names[] = {"a", "b", "c", "d", "e", ".storlab", "", "x/y", "z"};
  Random r(7, "tree");
  Caller who;
  for (int i = 0; i < 2000; ++i) {
    const std::string name = names[r.Uniform(9)];
    const bool good = !name.empty() && name.find('/') == std::string::npos && name != ".storlab";
    const int op = static_cast<int>(r.Uniform(7));
    if (op == 0) {  // create
      auto c = v.Create(kRootIno, name, 0644, O_RDWR, who);
      if (!good || files.count(name)) {
        EXPECT_FALSE(c.ok()) << name;
        if (files.count(name)) {
          EXPECT_EQ(ToErrno(c.status()), EEXIST);
        }
        continue;
      }
      ASSERT_TRUE(c.ok()) << c.status().ToString();
      files[name] = {};
      inos[name] = c->first.st_ino;
      continue;
    }
    if (!files.count(name)) {
      if (good) {
        EXPECT_EQ(ToErrno(v.Lookup(kRootIno, name).status()), ENOENT);
      }
      continue;
    }
    const uint64_t ino = inos[name];
    auto& model = files[name];
    const uint64_t off = r.Uniform(8) == 0 ? Pick(r, {~0ull >> 2, 1ull << 61}) : r.Uniform(300000);
    const size_t n = r.Uniform(6) == 0 ? Pick(r, {0, 1, 4095, 4097, 1 << 20}) : r.Uniform(30000);
    if (op == 1) {  // write
      auto d = Bytes(r, n);
      size_t got = 0;
      const int e = WriteAt(v, ino, off, d, &got);
      if (off > (1ull << 60) && n > 0) {
        EXPECT_EQ(e, EINVAL);
      } else if (e == ENOSPC) {
        // Nothing changed (the allocator took nothing).
      } else {
        ASSERT_EQ(e, 0);
        ASSERT_EQ(got, n);
        if (n > 0) {
          if (model.size() < off + n) model.resize(off + n, 0);
          std::copy(d.begin(), d.end(), model.begin() + static_cast<long>(off));
        }
      }
    } else if (op == 2) {  // read
      std::vector<uint8_t> got;
      ASSERT_EQ(ReadAt(v, ino, off, n, &got), 0);
      const uint64_t want = off >= model.size() ? 0 : std::min<uint64_t>(n, model.size() - off);
      ASSERT_EQ(got.size(), want) << name << " at " << off;
      for (size_t k = 0; k < got.size(); ++k)
        ASSERT_EQ(got[k], model[off + k]) << name << " byte " << off + k;
    } else if (op == 3) {  // truncate
      SetAttrs s;
      s.size = true;
      s.attr.st_size = static_cast<off_t>(off);
      Answer a;
      v.SetAttr(ino, s, [&](Result<struct stat> st) { a.Done(ToErrno(st.status())); });
      a.Wait();
      if (off > (1ull << 60)) {
        EXPECT_EQ(a.err, EINVAL);
      } else {
        ASSERT_EQ(a.err, 0);
        model.resize(off, 0);
      }
    } else if (op == 4) {  // rename, with random flags
      const std::string to = names[r.Uniform(9)];
      const uint32_t flags =
          static_cast<uint32_t>(Pick(r, {0, RENAME_NOREPLACE, RENAME_EXCHANGE, RENAME_WHITEOUT}));
      Status st = v.Rename(kRootIno, name, kRootIno, to, flags);
      const bool to_good = !to.empty() && to.find('/') == std::string::npos && to != ".storlab";
      const bool exists = files.count(to) > 0;
      if (!to_good || flags == RENAME_WHITEOUT || (flags == RENAME_NOREPLACE && exists) ||
          (flags == RENAME_EXCHANGE && !exists)) {
        EXPECT_FALSE(st.ok()) << name << " -> " << to << " flags " << flags;
        continue;
      }
      ASSERT_TRUE(st.ok()) << st.ToString();
      if (to == name) continue;
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
    } else if (op == 5) {  // unlink (and the kernel forgets it)
      ASSERT_TRUE(v.Unlink(kRootIno, name).ok());
      v.Forget(ino, 1);
      files.erase(name);
      inos.erase(name);
    } else {  // fallocate, every mode
      const int mode = static_cast<int>(
          Pick(r, {0, FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE,
                   FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, FALLOC_FL_ZERO_RANGE,
                   FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE, FALLOC_FL_COLLAPSE_RANGE}));
      const int e = StatusCall(
          [&](Vfs::StatusReply rep) { v.Fallocate(ino, 0, mode, off, n, std::move(rep)); });
      const bool keep = mode & FALLOC_FL_KEEP_SIZE;
      const int what = mode & ~FALLOC_FL_KEEP_SIZE;
      if (what == FALLOC_FL_COLLAPSE_RANGE || (what == FALLOC_FL_PUNCH_HOLE && !keep)) {
        EXPECT_EQ(e, EOPNOTSUPP) << name << " mode " << mode;
        continue;
      }
      if (e != 0) {
        // Nothing changed: a zero length or a range past the largest file,
        // or no space for the holes (the allocator took nothing).
        EXPECT_TRUE(e == EINVAL || e == ENOSPC) << name << " mode " << mode << ": " << e;
        continue;
      }
      // Allocation and ZERO_RANGE grow the file unless KEEP_SIZE; PUNCH_HOLE
      // and ZERO_RANGE then read as zeros over the range.
      if (!keep && what != FALLOC_FL_PUNCH_HOLE && model.size() < off + n) model.resize(off + n, 0);
      if (what != 0 && off < model.size()) {
        const uint64_t end = std::min<uint64_t>(off + n, model.size());
        std::fill(model.begin() + static_cast<long>(off), model.begin() + static_cast<long>(end),
                  0);
      }
    }
  }
  // A listing shows exactly the model's files (and .storlab).
  auto list = v.ReadDir(kRootIno, 0, 100);
  ASSERT_TRUE(list.ok());
  std::set<std::string> seen;
  for (const auto& e : *list) seen.insert(e.name);
  for (const auto& [name, data] : files) EXPECT_TRUE(seen.count(name)) << name;
  EXPECT_TRUE(seen.count(".storlab"));
  EXPECT_EQ(seen.size(), files.size() + 3);  // ".", ".."
  // Every file reads back as the model, byte for byte, to its end.
  for (const auto& [name, data] : files) {
    for (uint64_t off = 0; off < data.size(); off += 65536) {
      std::vector<uint8_t> got;
      ASSERT_EQ(ReadAt(v, inos[name], off, 65536, &got), 0);
      const uint64_t want = std::min<uint64_t>(65536, data.size() - off);
      ASSERT_EQ(got.size(), want) << name << " at " << off;
      for (size_t k = 0; k < got.size(); ++k)
        ASSERT_EQ(got[k], data[off + k]) << name << " byte " << off + k;
    }
  }
  // Removing everything leaves the root alone and the device empty.
  for (const auto& [name, ino] : inos) {
    ASSERT_TRUE(v.Unlink(kRootIno, name).ok());
    v.Forget(ino, 1);
  }
  EXPECT_EQ(t->inodes(), 1u);
  auto sfs = v.StatFs(kRootIno);
  EXPECT_EQ(sfs->f_bfree, sfs->f_blocks);
  EXPECT_EQ(svc->Stats()["service"]["oracle"][0]["read_violations"], 0);
}

}  // namespace vfs_random_test
}  // namespace storlab
