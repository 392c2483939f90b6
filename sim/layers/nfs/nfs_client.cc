#include "sim/layers/nfs/nfs_client.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/quoted.h"

namespace storlab {

namespace {
constexpr uint64_t kNfsPage = 4096;  // the client's page (PAGE_SIZE)
}  // namespace

NfsClient::NfsClient(const NfsClientConfig& config, uint64_t host_mem_bytes, uint64_t wsize)
    : config_(config),
      wsize_(wsize),
      on_bytes_(config.congestion_bytes ? config.congestion_bytes
                                        : DefaultCongestionBytes(host_mem_bytes)) {}

Result<uint32_t> NfsClient::ParseKernel(const std::string& text) {
  unsigned major = 0, minor = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%u.%u%c", &major, &minor, &extra) != 2 || major < 2 ||
      major > 99 || minor > 99) {
    return Status::InvalidArgument(
        "expected a kernel version MAJOR.MINOR such as 5.15 or 6.2, got " + Quoted(text));
  }
  return major * 100 + minor;
}

uint64_t NfsClient::DefaultCongestionBytes(uint64_t host_mem_bytes) {
  // nfs_init_writepagecache(): nfs_congestion_kb = (16 * int_sqrt(totalram
  // pages)) << (PAGE_SHIFT - 10), at most 256 * 1024 (KiB).
  const uint64_t pages = host_mem_bytes / kNfsPage;
  auto root = static_cast<uint64_t>(std::sqrt(static_cast<double>(pages)));
  while (root * root > pages) --root;  // int_sqrt: the floor, exactly
  while ((root + 1) * (root + 1) <= pages) ++root;
  return std::min<uint64_t>(16 * root * kNfsPage, uint64_t{256} << 20);
}

NfsClient::Congestion NfsClient::congestion_mode() const {
  if (config_.kernel < 518) return Congestion::kReclaimOnly;
  if (config_.kernel < 611) return Congestion::kSkip;
  return Congestion::kWait;
}

void NfsClient::OnWriteSent(uint64_t bytes) {
  in_flight_ += bytes;
  // nfs_set_page_writeback(): congested above NFS_CONGESTION_ON_THRESH.
  if (!congested_ && in_flight_ > on_bytes_) {
    congested_ = true;
    ++congestion_events_;
  }
}

bool NfsClient::OnWriteDone(uint32_t file, uint64_t bytes, bool stable) {
  in_flight_ -= std::min(in_flight_, bytes);
  if (!stable) {
    unstable_by_file_[file] += bytes;
    unstable_ += bytes;
  }
  // nfs_end_page_writeback(): uncongested below NFS_CONGESTION_OFF_THRESH.
  if (congested_ && in_flight_ < congestion_off_bytes()) {
    congested_ = false;
    return true;
  }
  return false;
}

uint64_t NfsClient::OnCommitSent(uint32_t file) {
  auto it = unstable_by_file_.find(file);
  if (it == unstable_by_file_.end()) return 0;
  const uint64_t bytes = it->second;
  unstable_by_file_.erase(it);
  unstable_ -= bytes;
  committing_ += bytes;
  return bytes;
}

void NfsClient::OnCommitDone(uint64_t bytes) { committing_ -= std::min(committing_, bytes); }

uint64_t NfsClient::unstable_bytes(uint32_t file) const {
  auto it = unstable_by_file_.find(file);
  return it == unstable_by_file_.end() ? 0 : it->second;
}

std::vector<uint32_t> NfsClient::unstable_files() const {
  std::vector<uint32_t> out;
  for (const auto& [f, bytes] : unstable_by_file_) out.push_back(f);
  return out;
}

bool NfsClient::FileSync(uint32_t file, uint64_t run_bytes, bool last) const {
  // nfs_pgio_rpcsetup(): FLUSH_COND_STABLE becomes FILE_SYNC when nothing
  // of the file awaits COMMIT (nfs_reqs_to_commit).
  if (unstable_bytes(file) > 0) return false;
  if (last) return true;
  // Before a527c3ba (6.10) a run ended by a non-adjacent page (shorter than
  // wsize) was sent by nfs_pageio_cond_complete() without pg_moreio.
  return config_.kernel < 610 && run_bytes < wsize_;
}

bool NfsClient::PassDone(uint64_t pass) {
  auto it = passes_.find(pass);
  if (it == passes_.end()) return false;
  if (--it->second > 0) return false;
  passes_.erase(it);
  return true;
}

void NfsClient::Reset() {
  passes_.clear();
  in_flight_ = 0;
  congested_ = false;
  unstable_by_file_.clear();
  unstable_ = 0;
  committing_ = 0;
}

}  // namespace storlab
