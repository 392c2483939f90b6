// Env: the host's failures injected under a FileStore and the stack-file
// reader (tests/sim/fault_env.h): each error names the file and what
// failed, short reads and writes still move every byte, and what was
// stored before a failure is still there after it.
#include "sim/env.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/profile/loader.h"
#include "sim/quoted.h"
#include "sim/status_errno.h"
#include "sim/store/file_store.h"
#include "tests/sim/fault_env.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace env_test {

using testing::FaultEnv;
using testing::Pattern;

bool Has(const Status& st, const std::string& part) {
  return st.message().find(part) != std::string::npos;
}

class EnvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() / ("storlab-env-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    path_ = dir_ + "/disk.img";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::unique_ptr<FileStore> OpenStore(Env* env) {
    auto s = FileStore::Open(path_, 1 << 20, env);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? std::move(s).value() : nullptr;
  }
  std::vector<uint8_t> ReadBack(Store& s, uint64_t off, uint64_t len) {
    std::vector<uint8_t> r(len);
    EXPECT_TRUE(s.Read(off, len, r.data()).ok());
    return r;
  }
  std::string WriteFile(const std::string& name, const std::string& text) {
    const std::string p = dir_ + "/" + name;
    FILE* f = std::fopen(p.c_str(), "w");
    std::fputs(text.c_str(), f);
    std::fclose(f);
    return p;
  }

  std::string dir_, path_;
  FaultEnv env_;
};

TEST_F(EnvTest, ShortReadsAndWritesMoveEveryByte) {
  env_.max_read = 7;
  env_.max_write = 5;
  env_.punch_errno = EOPNOTSUPP;  // Zero() writes zeros instead
  auto s = OpenStore(&env_);
  ASSERT_TRUE(s);
  const auto a = Pattern(10000, 3);
  ASSERT_TRUE(s->Write(1000, a.size(), a.data()).ok());
  ASSERT_TRUE(s->Zero(2000, 1000).ok());
  auto want = a;
  std::fill(want.begin() + 1000, want.begin() + 2000, 0);
  EXPECT_EQ(ReadBack(*s, 1000, a.size()), want);
  auto plain = OpenStore(nullptr);  // the host's own view of the file
  EXPECT_EQ(ReadBack(*plain, 1000, a.size()), want);
}

TEST_F(EnvTest, FullDiskFailsTheWriteAndKeepsWhatWasStored) {
  auto s = OpenStore(&env_);
  ASSERT_TRUE(s);
  const auto a = Pattern(8192, 1), b = Pattern(8192, 2);
  ASSERT_TRUE(s->Write(0, a.size(), a.data()).ok());
  env_.space_left = 4096;  // half of the next write fits
  Status st = s->Write(65536, b.size(), b.data());
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Status::Code::kNoSpace);
  EXPECT_EQ(ToErrno(st), ENOSPC) << "the exports report ENOSPC, not EIO";
  EXPECT_TRUE(Has(st, "write to " + path_ + " at offset 69632")) << st.message();
  EXPECT_TRUE(Has(st, "No space left on device")) << st.message();
  EXPECT_EQ(ReadBack(*s, 0, a.size()), a) << "data stored before the failure";
  // Space again: the write goes through, and both survive a reopen.
  env_.space_left = FaultEnv::kUnlimited;
  ASSERT_TRUE(s->Write(65536, b.size(), b.data()).ok());
  s.reset();
  auto again = OpenStore(nullptr);
  ASSERT_TRUE(again);
  EXPECT_EQ(ReadBack(*again, 0, a.size()), a);
  EXPECT_EQ(ReadBack(*again, 65536, b.size()), b);
}

TEST_F(EnvTest, ReadAndWriteErrorsNameTheFileAndOffset) {
  auto s = OpenStore(&env_);
  ASSERT_TRUE(s);
  const auto a = Pattern(4096, 5);
  ASSERT_TRUE(s->Write(8192, a.size(), a.data()).ok());
  env_.read_errno = EIO;
  std::vector<uint8_t> r(100);
  Status st = s->Read(9000, r.size(), r.data());
  EXPECT_EQ(st.code(), Status::Code::kIoError);
  EXPECT_EQ(st.message(), "read from " + path_ + " at offset 9000: Input/output error");
  env_.read_errno = 0;
  env_.write_errno = EIO;
  st = s->Write(0, a.size(), a.data());
  EXPECT_EQ(st.message(), "write to " + path_ + " at offset 0: Input/output error");
  env_.write_errno = 0;
  env_.max_write = 0;  // a write that never moves: an error, not a hang
  st = s->Write(0, a.size(), a.data());
  EXPECT_TRUE(Has(st, "write to " + path_ + " at offset 0: nothing written")) << st.message();
  env_.max_write = 1 << 20;
  EXPECT_EQ(ReadBack(*s, 8192, a.size()), a);
}

TEST_F(EnvTest, OpenAndSizeFailuresNameTheFile) {
  env_.open_errno = EACCES;
  auto s = FileStore::Open(path_, 4096, &env_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Status::Code::kNotPermitted);
  EXPECT_EQ(s.status().message(), "cannot open " + path_ + ": Permission denied");
  env_.open_errno = 0;
  env_.truncate_errno = EFBIG;
  s = FileStore::Open(path_, 4096, &env_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "cannot size " + path_ + ": File too large");
}

TEST_F(EnvTest, FileStoresOfAStackOpenThroughTheEnv) {
  env_.open_errno = ENOSPC;
  Engine e;
  BuildOptions o;
  o.data_mode = DataMode{DataMode::Kind::kFile, dir_, &env_};
  auto r = LoadStack("hdd-7200", e, o);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(Has(r.status(), "cannot open " + dir_ + "/")) << r.status().message();
  EXPECT_TRUE(Has(r.status(), ".img: No space left on device")) << r.status().message();
  EXPECT_GE(env_.opens, 1u);
}

TEST_F(EnvTest, StackFilesReadThroughTheEnv) {
  const std::string inner =
      WriteFile("inner.toml", "[node.d]\ntype = \"ram\"\ncapacity = \"1MiB\"\n");
  const std::string outer = WriteFile("outer.toml", "[node.top]\nuse = \"inner.toml\"\n");
  Engine e0;
  auto plain = LoadStack(outer, e0, BuildOptions{});
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();

  env_.max_read = 3;  // short reads: the same stack
  Engine e1;
  BuildOptions o;
  o.env = &env_;
  auto shortread = LoadStack(outer, e1, o);
  ASSERT_TRUE(shortread.ok()) << shortread.status().ToString();
  EXPECT_EQ(shortread->resolved, plain->resolved);
  EXPECT_EQ(env_.opens, 2u) << "the file and the one it uses";

  env_.read_errno = EIO;  // not a truncated parse: an error naming the file
  Engine e2;
  auto broken = LoadStack(outer, e2, o);
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.status().message(), "cannot read " + Quoted(outer) + ": Input/output error");

  env_.read_errno = 0;
  env_.open_errno = EACCES;
  Engine e3;
  broken = LoadStack(outer, e3, o);
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.status().message(), "cannot open " + Quoted(outer) + ": Permission denied");
}

}  // namespace env_test
}  // namespace storlab
