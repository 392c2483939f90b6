// fio's verify state files (verify_state.h).
#include "workloads/fio/verify_state.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "sim/quoted.h"
#include "workloads/fio/verify.h"

namespace storlab::fio {
namespace {

constexpr uint64_t kStateVersion = 3;    // VSTATE_HDR_VERSION
constexpr size_t kStateHdrBytes = 24;    // struct verify_state_hdr
constexpr size_t kStateListBytes = 152;  // struct thread_io_list without its comps
constexpr size_t kStateCompBytes = 16;   // struct file_comp
constexpr size_t kStateNameAt = 88;      // thread_io_list.name
constexpr size_t kStateNameBytes = 64;

void StatePut(std::vector<uint8_t>& b, size_t at, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) b[at + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
}
uint64_t StateGet(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

}  // namespace

std::string VerifyStateFileName(const std::string& job_name, uint64_t index) {
  std::string e = job_name;
  std::replace(e.begin(), e.end(), '/', '.');
  return "local-" + e + "-" + std::to_string(static_cast<int>(index)) + "-verify.state";
}

// get_all_io_list(): no_comps, depth, nofiles, numberio, index, the
// generator (use64 and its union), the name (snprintf "%s" into 64 bytes),
// then depth * nofiles file_comps, those not filled zero.
std::vector<uint8_t> EncodeVerifyState(const VerifyState& s) {
  const size_t size = kStateListBytes + static_cast<size_t>(s.depth) * s.nofiles * kStateCompBytes;
  std::vector<uint8_t> b(kStateHdrBytes + size, 0);
  const size_t l = kStateHdrBytes;
  StatePut(b, l + 0, s.comps.size(), 8);
  StatePut(b, l + 8, s.depth, 4);
  StatePut(b, l + 12, s.nofiles, 4);
  StatePut(b, l + 16, s.numberio, 8);
  StatePut(b, l + 24, s.index, 8);
  const size_t n = std::min(s.name.size(), kStateNameBytes - 1);
  std::copy(s.name.begin(), s.name.begin() + static_cast<std::ptrdiff_t>(n),
            b.begin() + l + kStateNameAt);
  for (size_t i = 0; i < s.comps.size() && kStateListBytes + (i + 1) * kStateCompBytes <= size;
       ++i) {
    StatePut(b, l + kStateListBytes + i * kStateCompBytes, s.comps[i].fileno, 8);
    StatePut(b, l + kStateListBytes + i * kStateCompBytes + 8, s.comps[i].offset, 8);
  }
  StatePut(b, 0, kStateVersion, 8);
  StatePut(b, 8, size, 8);
  StatePut(b, 16, Crc32c(b.data() + l, size), 8);  // fio_crc32c() of the list
  return b;
}

Result<VerifyState> DecodeVerifyState(const std::vector<uint8_t>& bytes) {
  if (bytes.size() < kStateHdrBytes) {
    return Status::InvalidArgument("fio: failed reading verify state header");
  }
  const uint64_t version = StateGet(bytes.data(), 8), size = StateGet(bytes.data() + 8, 8),
                 crc = StateGet(bytes.data() + 16, 8);
  if (version != kStateVersion) {
    return Status::InvalidArgument("fio: unsupported (" +
                                   std::to_string(static_cast<unsigned>(version)) +
                                   ") version in verify state header");
  }
  if (size < kStateListBytes || bytes.size() - kStateHdrBytes < size) {
    return Status::InvalidArgument("fio: failed reading verity state");  // sic, fio's
  }
  const uint8_t* l = bytes.data() + kStateHdrBytes;
  if (Crc32c(l, size) != crc) return Status::InvalidArgument("fio: verify state is corrupt");
  VerifyState s;
  const uint64_t no_comps = StateGet(l, 8);
  s.depth = static_cast<uint32_t>(StateGet(l + 8, 4));
  s.nofiles = static_cast<uint32_t>(StateGet(l + 12, 4));
  s.numberio = StateGet(l + 16, 8);
  s.index = StateGet(l + 24, 8);
  const uint8_t* name = l + kStateNameAt;
  s.name.assign(name, std::find(name, name + kStateNameBytes, 0));
  for (uint64_t i = 0; i < no_comps && kStateListBytes + (i + 1) * kStateCompBytes <= size; ++i) {
    s.comps.push_back({StateGet(l + kStateListBytes + i * kStateCompBytes, 8),
                       StateGet(l + kStateListBytes + i * kStateCompBytes + 8, 8)});
  }
  return s;
}

Status WriteVerifyStateFile(const std::vector<uint8_t>& bytes, const std::string& name,
                            uint64_t index) {
  const std::string path = VerifyStateFileName(name, index);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    return Status::InvalidArgument("verify_state_save: cannot open " + Quoted(path) + ": " +
                                   std::strerror(errno));
  }
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  if (std::fclose(f) != 0 || !ok) {
    return Status::InvalidArgument("verify_state_save: cannot write " + Quoted(path));
  }
  return Status();
}

// backend.c fio_verify_load_state() / verify.c open_state_file(): fio says
// why on two lines (perror(), then the file's name).
Result<VerifyState> ReadVerifyStateFile(const std::string& name, uint64_t index) {
  const std::string path = VerifyStateFileName(name, index);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::InvalidArgument(std::string("fio: open state file: ") + std::strerror(errno) +
                                   "\nfio: state file: " + path + " (for_write=0)");
  }
  std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return DecodeVerifyState(bytes);
}

bool VerifyStateStops(const VerifyState& s, uint64_t reads_done, uint64_t fileno, uint64_t offset) {
  // Not yet within the last `depth` writes (or fewer writes than that).
  if ((reads_done < s.depth || s.numberio - reads_done > s.depth) && s.numberio > s.depth) {
    return false;
  }
  for (const VerifyState::Comp& c : s.comps) {
    if (c.fileno == fileno && c.offset == offset) return false;
  }
  return true;
}

}  // namespace storlab::fio
