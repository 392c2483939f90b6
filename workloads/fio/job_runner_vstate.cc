// JobRunner's verify state file (verify_state.h): what verify_state_save
// writes when the job ends. The writes completed are recorded as they are
// reaped (VerifyLog::LogWriteComp()); verify_state_load's stop is in
// job_runner_io.cc Issue(); verify_state_load's state is handed in
// before the job starts (LoadVerifyState()).
#include <memory>
#include <utility>

#include "workloads/fio/job_runner.h"

namespace storlab::fio {

void JobRunner::LoadVerifyState(VerifyState s) {
  vlog_.loaded = std::make_unique<VerifyState>(std::move(s));
}

// backend.c thread_main(): at its end, a job that writes with verify= and
// verify_state_save saves its state (verify_save_state(thread_number));
// verify.c get_all_io_list() / __fill_file_completions(): per file,
// min(writes completed, iodepth) offsets from the newest back (the count
// is the job's, the ring each file's own), numberio the writes issued.
void JobRunner::SaveVerifyState() {
  const JobOptions& o = spec_.opts;
  if (!o.verify_state_save || spec_.verify == VerifyKind::kNone || !spec_.do_write) return;
  VerifyState s;
  s.depth = spec_.iodepth;
  s.nofiles = static_cast<uint32_t>(files_.size());
  s.numberio = write_issues_;
  s.index = static_cast<uint64_t>(spec_.thread_number - 1);
  s.name = spec_.name;
  const uint64_t comps = std::min<uint64_t>(done_ios_[kWrite], spec_.iodepth);
  for (size_t f = 0; f < vlog_.write_comps.size(); ++f) {
    const std::vector<uint64_t>& ring = vlog_.write_comps[f];
    size_t j = vlog_.write_comp_idx[f];
    for (uint64_t i = 0; i < comps; ++i) {
      j = (j == 0 ? ring.size() : j) - 1;
      s.comps.push_back({f, ring[j]});
    }
  }
  vlog_.saved = EncodeVerifyState(s);
}

}  // namespace storlab::fio
