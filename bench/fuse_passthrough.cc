// fuse_passthrough: the least a FUSE file system can do — one file,
// MOUNTPOINT/img, whose reads and writes are pread/pwrite on a backing file
// (on tmpfs: RAM) in the request handler itself, with direct I/O — the
// ceiling the storlab mount's `ram` stack is compared with
// (bench/fuse_fidelity.sh). The same connection settings as storlab's
// (max_write 1 MiB, max_background 128, async direct I/O, 4 threads).
// With SLEEP_US, each read and write first sleeps that long in its handler
// (clock_nanosleep, 1 ns timer slack): the least a FUSE server that blocks
// for a device's latency can do — what bench/nbd_sleep_plugin.c is for NBD.
//
//   fuse_passthrough BACKING_FILE MOUNTPOINT [THREADS [SLEEP_US]]   (in the
//   foreground; THREADS: FUSE worker threads at most, default 4 as
//   storlab's; SLEEP_US default 0)
#define FUSE_USE_VERSION 314
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

namespace {

constexpr fuse_ino_t kImg = 2;
int backing = -1;
long sleep_ns = 0;

// SLEEP_US's sleep, on the handler's thread.
void Block() {
  if (sleep_ns == 0) return;
  thread_local const bool precise = prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL) == 0;
  (void)precise;
  const timespec t = {sleep_ns / 1'000'000'000, sleep_ns % 1'000'000'000};
  clock_nanosleep(CLOCK_MONOTONIC, 0, &t, nullptr);
}

struct stat Attr(fuse_ino_t ino) {
  struct stat st = {};
  st.st_ino = ino;
  if (ino == FUSE_ROOT_ID) {
    st.st_mode = S_IFDIR | 0755;
    st.st_nlink = 2;
  } else {
    fstat(backing, &st);
    st.st_ino = kImg;
    st.st_mode = S_IFREG | 0644;
  }
  return st;
}

void Init(void*, fuse_conn_info* conn) {
  if (conn->capable & FUSE_CAP_ASYNC_DIO) conn->want |= FUSE_CAP_ASYNC_DIO;
  conn->max_write = std::min<unsigned>(conn->max_write, 1u << 20);
  conn->max_background = 128;
  conn->congestion_threshold = 96;
}

void Lookup(fuse_req_t req, fuse_ino_t parent, const char* name) {
  if (parent != FUSE_ROOT_ID || std::strcmp(name, "img") != 0) {
    fuse_reply_err(req, ENOENT);
    return;
  }
  fuse_entry_param e = {};
  e.ino = kImg;
  e.attr = Attr(kImg);
  e.attr_timeout = e.entry_timeout = 1.0;
  fuse_reply_entry(req, &e);
}

void Getattr(fuse_req_t req, fuse_ino_t ino, fuse_file_info*) {
  const struct stat st = Attr(ino);
  fuse_reply_attr(req, &st, 1.0);
}

void Open(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  if (ino != kImg) {
    fuse_reply_err(req, EISDIR);
    return;
  }
  fi->direct_io = 1;
  fuse_reply_open(req, fi);
}

void Read(fuse_req_t req, fuse_ino_t, size_t size, off_t off, fuse_file_info*) {
  Block();
  std::vector<char> buf(size);
  const ssize_t n = pread(backing, buf.data(), size, off);
  if (n < 0) {
    fuse_reply_err(req, errno);
  } else {
    fuse_reply_buf(req, buf.data(), static_cast<size_t>(n));
  }
}

void Write(fuse_req_t req, fuse_ino_t, const char* buf, size_t size, off_t off, fuse_file_info*) {
  Block();
  const ssize_t n = pwrite(backing, buf, size, off);
  if (n < 0) {
    fuse_reply_err(req, errno);
  } else {
    fuse_reply_write(req, static_cast<size_t>(n));
  }
}

void Readdir(fuse_req_t req, fuse_ino_t, size_t size, off_t off, fuse_file_info*) {
  std::vector<char> buf(size);
  size_t used = 0;
  struct stat st = {};
  if (off < 1) {
    st.st_ino = kImg;
    st.st_mode = S_IFREG;
    used += fuse_add_direntry(req, buf.data(), size, "img", &st, 1);
  }
  fuse_reply_buf(req, buf.data(), std::min(used, size));
}

void Fsync(fuse_req_t req, fuse_ino_t, int, fuse_file_info*) { fuse_reply_err(req, 0); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 5) {
    std::fprintf(stderr, "usage: fuse_passthrough BACKING_FILE MOUNTPOINT [THREADS [SLEEP_US]]\n");
    return 2;
  }
  if (argc == 5) {
    char* end = nullptr;
    const long us = std::strtol(argv[4], &end, 10);
    if (end == argv[4] || *end != '\0' || us < 0 || us > 1'000'000) {
      std::fprintf(stderr, "fuse_passthrough: SLEEP_US: microseconds from 0 to 1000000, not '%s'\n",
                   argv[4]);
      return 2;
    }
    sleep_ns = us * 1000;
  }
  backing = open(argv[1], O_RDWR);
  if (backing < 0) {
    std::perror(argv[1]);
    return 1;
  }
  fuse_lowlevel_ops ops = {};
  ops.init = Init;
  ops.lookup = Lookup;
  ops.getattr = Getattr;
  ops.open = Open;
  ops.read = Read;
  ops.write = Write;
  ops.readdir = Readdir;
  ops.fsync = Fsync;
  char arg0[] = "fuse_passthrough";
  char* av[] = {arg0, nullptr};
  fuse_args args = FUSE_ARGS_INIT(1, av);
  fuse_session* se = fuse_session_new(&args, &ops, sizeof ops, nullptr);
  if (se == nullptr || fuse_set_signal_handlers(se) != 0 || fuse_session_mount(se, argv[2]) != 0)
    return 1;
  fuse_loop_config* cfg = fuse_loop_cfg_create();
  const int threads = argc >= 4 ? std::max(1, std::atoi(argv[3])) : 4;
  fuse_loop_cfg_set_max_threads(cfg, static_cast<unsigned>(threads));
  // None exits when idle (as storlab mount: fusefs/mount.cc).
  fuse_loop_cfg_set_idle_threads(cfg, static_cast<unsigned>(threads));
  const int rc = fuse_session_loop_mt(se, cfg);
  fuse_loop_cfg_destroy(cfg);
  fuse_session_unmount(se);
  fuse_remove_signal_handlers(se);
  fuse_session_destroy(se);
  close(backing);
  return rc == 0 ? 0 : 1;
}
