// Writeback toward an NFS mount: what the Linux NFS client does differently
// from a block device (the rules are NfsClient's, sim/layers/nfs/nfs_client.h).
#include <memory>

#include "sim/join.h"
#include "sim/layers/page_cache/page_cache_writeback.h"

namespace storlab {

bool Writeback::NfsBackgroundMayWrite() {
  // nfs_writepages() with WB_SYNC_NONE while write_congested (5.18+): no
  // WRITE is sent; writeback goes on once congestion clears (the next
  // WRITE reply below the off threshold pumps again: 6.11+ waits for it,
  // 5.18-6.10 retries at the writer's next balance_dirty_pages(), which a
  // running writer reaches within microseconds).
  if (config_.nfs->BackgroundMayWrite()) {
    congestion_noted_ = false;
    return true;
  }
  if (!congestion_noted_) ++counters_.nfs_congested_skips;
  congestion_noted_ = true;
  return false;
}

void Writeback::NfsWriteDone(const WritebackOp& op, uint64_t bytes, bool ok) {
  NfsClient& nfs = *config_.nfs;
  // A failed WRITE leaves nothing to COMMIT.
  nfs.OnWriteDone(op.file, bytes, op.stable || !ok);
  // nfs_io_completion_commit(): the pass's WRITEs are all answered.
  if (op.sync_id == 0 && nfs.PassDone(op.pass) && nfs.unstable_bytes(op.file) > 0) {
    NfsCommit(op.file, [](Status) {});
  }
}

void Writeback::NfsCommit(uint32_t file, Callback<void(Status)> then) {
  NfsClient& nfs = *config_.nfs;
  std::vector<uint32_t> files;
  if (file != 0) {
    if (nfs.unstable_bytes(file) > 0) files.push_back(file);
  } else {
    files = nfs.unstable_files();
  }
  // nfs_commit_inode() with an empty commit list sends nothing: every WRITE
  // was FILE_SYNC (or already committed).
  if (files.empty()) {
    engine_.After(Nanos(0), [then = std::move(then)]() mutable { then(Status()); });
    return;
  }
  auto join = Join::Make(std::move(then));
  for (uint32_t f : files) {
    const uint64_t bytes = nfs.OnCommitSent(f);
    ++counters_.nfs_commits;
    Completion done = join->Arm();
    Request c{.op = Op::kFlush,
              .flags = kBackground,
              .file_id = f,
              .done = [this, bytes, done = std::move(done)](Status st) mutable {
                config_.nfs->OnCommitDone(bytes);
                hooks_.cleaned();  // unstable pages counted as writeback are gone
                done(std::move(st));
              }};
    child_.Submit(std::move(c));
  }
  join->Seal(engine_);
}

}  // namespace storlab
