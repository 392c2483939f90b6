// ExtentFs's saved state (storlab sim --state): see extent_fs.h.
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/fs/extent_fs.h"
#include "sim/state_coding.h"

namespace storlab {

void ExtentFs::SaveState(StateWriter& w) const {
  w.U64(capacity_);
  w.U64(block_);
  w.U64(files_.size());
  for (const File& f : files_) {
    w.U64(f.id);
    if (!f.id) continue;
    w.Bytes(f.name);
    w.U64(f.size);
    w.U64(f.allocated);
    w.U64(f.extents.size());
    for (const Extent& e : f.extents) {
      w.U64(e.file_offset);
      w.U64(e.device_offset);
      w.U64(e.length);
    }
  }
  w.U64(free_.size());
  for (const auto& [off, len] : free_) {
    w.U64(off);
    w.U64(len);
  }
}

Status ExtentFs::RestoreState(StateReader& r) {
  if (r.U64() != capacity_ || r.U64() != block_) {
    r.Fail("a file system of another capacity or block size");
  }
  std::vector<File> files(r.Count(1));
  std::vector<std::pair<uint64_t, uint64_t>> used;  // every extent, then every free run
  for (size_t id = 0; id < files.size() && r.ok(); ++id) {
    File& f = files[id];
    f.id = static_cast<uint32_t>(r.U64());
    if (!f.id) continue;
    if (f.id != id) r.Fail("file id " + std::to_string(f.id) + " in slot " + std::to_string(id));
    f.name = r.Bytes();
    f.size = r.U64();
    f.allocated = r.U64();
    uint64_t allocated = 0, end = 0;
    f.extents.resize(r.Count(3));
    for (Extent& e : f.extents) {
      e.file_offset = r.U64();
      e.device_offset = r.U64();
      e.length = r.U64();
      if (e.file_offset < end || e.length == 0 || e.length % block_) r.Fail("a bad extent");
      end = e.file_offset + e.length;
      allocated += e.length;
      used.emplace_back(e.device_offset, e.length);
    }
    if (allocated != f.allocated) r.Fail("a file's extents do not add up to its allocation");
  }
  std::map<uint64_t, uint64_t> free;
  const uint64_t nfree = r.Count(2);
  uint64_t free_bytes = 0;
  for (uint64_t i = 0; i < nfree && r.ok(); ++i) {
    const uint64_t off = r.U64(), len = r.U64();
    free[off] = len;
    free_bytes += len;
    used.emplace_back(off, len);
  }
  // The extents and the free runs must tile [0, capacity) exactly.
  std::sort(used.begin(), used.end());
  uint64_t at = 0;
  for (const auto& [off, len] : used) {
    if (!r.ok()) break;
    if (off != at || off % block_ || len % block_ || len > capacity_ - off) {
      r.Fail("the files and the free space do not tile the device at offset " + std::to_string(at));
    }
    at = off + len;
  }
  if (r.ok() && at != capacity_) r.Fail("the files and the free space do not cover the device");
  if (r.ok() && files.empty()) r.Fail("no file table");
  std::map<std::string, uint32_t, std::less<>> names;
  for (const File& f : files) {
    if (r.ok() && f.id && !names.emplace(f.name, f.id).second) r.Fail("two files named " + f.name);
  }
  if (!r.ok()) return r.status();  // nothing changed
  files_ = std::move(files);
  free_ = std::move(free);
  free_bytes_ = free_bytes;
  names_ = std::move(names);
  return Status();
}

}  // namespace storlab
