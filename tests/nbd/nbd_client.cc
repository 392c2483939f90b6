// nbd_client: a small libnbd client for the NBD export's tests — what fio,
// nbdcopy and qemu-img do not send.
//
//   nbd_client bad-requests URI
//       out-of-range, misaligned, oversized and zero-length requests (libnbd's
//       own checks off, so they reach the server): each must fail with an
//       errno, and the server must go on serving and keep what it stored.
//   nbd_client control CONTROL_SOCKET LINE...
//       sends each LINE on one connection and prints each answer line.
//   nbd_client power-cut URI CONTROL_SOCKET
//       keeps writes in flight (each 4 KiB block tagged with its write), with
//       flushes now and then, and cuts the power through the control socket in
//       the middle, issuing nothing more: every request must be answered
//       exactly once (done or EIO), and afterwards every block must hold the
//       version a flush answered before the cut made durable, or a later one. Prints the server's
//       answer to the power-cut (the oracle's own check) and fails unless it says 0 violations.
// Exit status 0: all checks passed; 1: a check failed (said on stderr); 2: usage.
#include <libnbd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

int failures = 0;

void Check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL: %s\n", what.c_str());
    ++failures;
  } else {
    std::printf("ok: %s\n", what.c_str());
  }
}

nbd_handle* Connect(const char* uri) {
  nbd_handle* h = nbd_create();
  if (h == nullptr || nbd_connect_uri(h, uri) == -1) {
    std::fprintf(stderr, "connect %s: %s\n", uri, nbd_get_error());
    std::exit(1);
  }
  return h;
}

// Expects `rc` to be a failure with an errno (any), and says which.
void ExpectError(int rc, const std::string& what) {
  int err = nbd_get_errno();
  Check(rc == -1 && err != 0, what + (rc == -1 ? std::string(" -> ") + std::strerror(err)
                                               : std::string(" -> succeeded")));
}

int BadRequests(const char* uri) {
  nbd_handle* h = Connect(uri);
  nbd_set_strict_mode(h, 0);  // let the bad requests reach the server
  const int64_t size = nbd_get_size(h);
  const int64_t min_block = nbd_get_block_size(h, LIBNBD_SIZE_MINIMUM);
  std::vector<char> good(4096, 'g'), buf(40 << 20);
  Check(nbd_pwrite(h, good.data(), good.size(), 0, 0) == 0, "a good write at 0");
  ExpectError(nbd_pread(h, buf.data(), 4096, static_cast<uint64_t>(size), 0),
              "a read at the end of the export");
  ExpectError(nbd_pwrite(h, good.data(), 4096, static_cast<uint64_t>(size) - 512, 0),
              "a write across the end of the export");
  if (min_block > 1) {
    ExpectError(nbd_pread(h, buf.data(), 4096, 1, 0), "a read at offset 1 (misaligned)");
    ExpectError(nbd_pwrite(h, good.data(), 100, 0, 0), "a write of 100 bytes (misaligned)");
  }
  ExpectError(nbd_pread(h, buf.data(), 40 << 20, 0, 0), "a 40 MiB read (over the maximum)");
  ExpectError(nbd_pread(h, buf.data(), 0, 0, 0), "a zero-length read");
  ExpectError(nbd_zero(h, 4096, static_cast<uint64_t>(size), 0), "a write-zeroes beyond the end");
  if (nbd_can_fast_zero(h) == 1) {
    int rc = nbd_zero(h, 4096, 4096, LIBNBD_CMD_FLAG_FAST_ZERO);
    Check(rc == 0 || nbd_get_errno() == ENOTSUP, "a fast zero is done, or refused with ENOTSUP");
  }
  // Still serving, and the good write is intact.
  std::vector<char> back(4096);
  Check(nbd_pread(h, back.data(), back.size(), 0, 0) == 0 && back == good,
        "the server still serves, and the good write is intact");
  nbd_shutdown(h, 0);
  nbd_close(h);
  return failures ? 1 : 0;
}

// A connection to the control socket, or -1 (said on stderr).
int ConnectControl(const char* path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    std::fprintf(stderr, "cannot connect to %s: %s\n", path, std::strerror(errno));
    if (fd >= 0) ::close(fd);
    return -1;
  }
  return fd;
}

// One line to the control socket, one line back.
std::string Ask(int fd, const std::string& line) {
  std::string msg = line + "\n", answer;
  (void)!::write(fd, msg.data(), msg.size());
  char c;
  while (::read(fd, &c, 1) == 1 && c != '\n') answer += c;
  return answer;
}

std::string ControlCommand(const char* path, const std::string& line) {
  int fd = ConnectControl(path);
  if (fd < 0) return "error: no control socket";
  std::string answer = Ask(fd, line);
  ::close(fd);
  return answer;
}

struct Block {
  bool busy = false;          // a write to it is in flight: no second one
  uint64_t last_acked = 0;    // id of the newest acknowledged write (0: zeros)
  uint64_t last_flushed = 0;  // id of the newest write made durable by a flush
  std::vector<uint64_t> acked_since_flush;
};

void Fill(std::vector<char>& buf, uint64_t id, uint64_t block) {
  for (size_t i = 0; i < buf.size(); i += 16) {
    std::memcpy(&buf[i], &id, 8);
    std::memcpy(&buf[i + 8], &block, 8);
  }
}

int PowerCut(const char* uri, const char* control) {
  nbd_handle* h = Connect(uri);
  constexpr uint64_t kBlocks = 2048, kBs = 4096;
  constexpr int kDepth = 16;
  std::vector<Block> blocks(kBlocks);
  struct Slot {
    std::vector<char> buf = std::vector<char>(kBs);
    int64_t cookie = -1;
    uint64_t block = 0, id = 0;
    bool flush = false;
  };
  std::vector<Slot> slots(kDepth);
  uint64_t next_id = 1, submitted = 0, answered = 0, failed = 0, writes_done = 0;
  std::thread cutter;
  bool cut_sent = false;
  std::string cut_answer;
  uint64_t rng = 12345;
  auto rand = [&] {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
  };
  auto issue = [&](Slot& s) {
    s.flush = rand() % 10 == 0;
    if (s.flush) {
      // A flush covers the writes acknowledged before it is sent.
      s.id = writes_done;
      s.cookie = nbd_aio_flush(h, NBD_NULL_COMPLETION, 0);
    } else {
      do {
        s.block = rand() % kBlocks;
      } while (blocks[s.block].busy);
      blocks[s.block].busy = true;
      s.id = next_id++;
      Fill(s.buf, s.id, s.block);
      s.cookie = nbd_aio_pwrite(h, s.buf.data(), kBs, s.block * kBs, NBD_NULL_COMPLETION, 0);
    }
    ++submitted;
  };
  // A snapshot of what each flush covers: the acked ids at its submission.
  std::vector<std::vector<uint64_t>> flush_cover(kDepth);
  for (int i = 0; i < kDepth; ++i) {
    issue(slots[i]);
    if (slots[i].flush) {
      for (uint64_t b = 0; b < kBlocks; ++b) flush_cover[i].push_back(blocks[b].last_acked);
    }
  }
  const uint64_t kTotal = 4000;
  while (answered < submitted) {
    if (nbd_poll(h, -1) == -1) {
      std::fprintf(stderr, "poll: %s\n", nbd_get_error());
      return 1;
    }
    for (int i = 0; i < kDepth; ++i) {
      Slot& s = slots[i];
      if (s.cookie < 0) continue;
      int r = nbd_aio_command_completed(h, s.cookie);
      if (r == 0) continue;
      ++answered;
      s.cookie = -1;
      if (!s.flush) blocks[s.block].busy = false;
      if (r == -1) {
        ++failed;  // after the cut: EIO
      } else if (cut_sent) {
        // Answered after the cut was asked for: before or after it, the
        // client cannot tell, so it counts on nothing it did.
      } else if (s.flush) {
        for (uint64_t b = 0; b < kBlocks; ++b)
          if (flush_cover[i][b] > blocks[b].last_flushed)
            blocks[b].last_flushed = flush_cover[i][b];
      } else {
        blocks[s.block].last_acked = std::max(blocks[s.block].last_acked, s.id);
        ++writes_done;
      }
      if (!cut_sent && submitted >= kTotal / 2) {
        cut_sent = true;
        cutter = std::thread([&] { cut_answer = ControlCommand(control, "power-cut"); });
      }
      if (!cut_sent && submitted < kTotal) {
        issue(s);
        if (s.flush) {
          flush_cover[i].clear();
          for (uint64_t b = 0; b < kBlocks; ++b) flush_cover[i].push_back(blocks[b].last_acked);
        }
      }
    }
  }
  if (cutter.joinable()) cutter.join();
  std::printf("server: %s\n", cut_answer.c_str());
  Check(answered == submitted, "every request answered exactly once (" + std::to_string(answered) +
                                   " of " + std::to_string(submitted) + ", " +
                                   std::to_string(failed) + " with an error)");
  bool clean = cut_answer.rfind("power-cut:", 0) == 0;
  size_t seen = 0;
  for (size_t at = cut_answer.find(" violations"); at != std::string::npos;
       at = cut_answer.find(" violations", at + 1)) {
    ++seen;
    clean = clean && at >= 2 && cut_answer.compare(at - 2, 2, " 0") == 0;
  }
  Check(clean && seen > 0, "the server's oracle found no violation");
  // Every block holds its last flushed write or a later one.
  uint64_t checked = 0, bad = 0;
  std::vector<char> buf(kBs);
  for (uint64_t b = 0; b < kBlocks; ++b) {
    if (nbd_pread(h, buf.data(), kBs, b * kBs, 0) != 0) {
      ++bad;
      continue;
    }
    uint64_t id = 0, blk = 0;
    std::memcpy(&id, buf.data(), 8);
    std::memcpy(&blk, buf.data() + 8, 8);
    ++checked;
    if (id < blocks[b].last_flushed || (id != 0 && blk != b)) ++bad;
  }
  Check(bad == 0, "every block holds its flushed write or a later one (" + std::to_string(checked) +
                      " blocks read, " + std::to_string(bad) + " wrong)");
  nbd_shutdown(h, 0);
  nbd_close(h);
  return failures ? 1 : 0;
}

}  // namespace

// Sends each line on one connection and prints each answer.
int Control(const char* path, int n, char** lines) {
  int fd = ConnectControl(path);
  if (fd < 0) return 1;
  for (int i = 0; i < n; ++i) std::printf("%s\n", Ask(fd, lines[i]).c_str());
  ::close(fd);
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "bad-requests") return BadRequests(argv[2]);
  if (argc >= 3 && std::string(argv[1]) == "control") return Control(argv[2], argc - 3, argv + 3);
  if (argc == 4 && std::string(argv[1]) == "power-cut") return PowerCut(argv[2], argv[3]);
  std::fprintf(
      stderr,
      "usage: nbd_client bad-requests URI | control SOCKET LINE... | power-cut URI SOCKET\n");
  return 2;
}
