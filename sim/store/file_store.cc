#include "sim/store/file_store.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace storlab {
namespace {

std::string At(const std::string& what, const std::string& path, uint64_t off) {
  return what + " " + path + " at offset " + std::to_string(off);
}

}  // namespace

Result<std::unique_ptr<FileStore>> FileStore::Open(const std::string& path, uint64_t capacity,
                                                   Env* env) {
  if (!env) env = Env::Default();
  auto file = env->OpenReadWrite(path);
  if (!file.ok()) return file.status().WithContext("cannot open " + path);
  Status st = (*file)->Truncate(capacity);
  if (!st.ok()) return st.WithContext("cannot size " + path);
  return std::unique_ptr<FileStore>(new FileStore(std::move(file).value(), path));
}

Status FileStore::Read(uint64_t off, uint64_t len, uint8_t* out) const {
  while (len > 0) {
    auto n = file_->ReadAt(off, len, out);
    if (!n.ok()) return n.status().WithContext(At("read from", path_, off));
    if (*n == 0) {  // beyond the end: reads as zeros
      std::memset(out, 0, len);
      break;
    }
    off += *n;
    len -= *n;
    out += *n;
  }
  return Status();
}

Status FileStore::Write(uint64_t off, uint64_t len, const uint8_t* in) {
  while (len > 0) {
    auto n = file_->WriteAt(off, len, in);
    if (!n.ok()) return n.status().WithContext(At("write to", path_, off));
    if (*n == 0) return Status::IoError(At("write to", path_, off) + ": nothing written");
    off += *n;
    len -= *n;
    in += *n;
  }
  return Status();
}

Status FileStore::Zero(uint64_t off, uint64_t len) {
  if (file_->PunchHole(off, len).ok()) return Status();
  // The host file system cannot punch holes: write zeros instead.
  std::vector<uint8_t> zeros(std::min<uint64_t>(len, 1 << 20), 0);
  while (len > 0) {
    uint64_t n = std::min<uint64_t>(len, zeros.size());
    RETURN_IF_ERROR(Write(off, n, zeros.data()));
    off += n;
    len -= n;
  }
  return Status();
}

uint64_t FileStore::allocated_bytes() const {
  auto n = file_->AllocatedBytes();
  return n.ok() ? *n : 0;
}

Status FileStore::SaveState(StateWriter&) const {
  return Status::NotSupported("a file store keeps its data in " + path_ + ", not in a saved state");
}

Status FileStore::RestoreState(StateReader&) {
  return Status::NotSupported("a file store keeps its data in " + path_ + ", not in a saved state");
}

}  // namespace storlab
