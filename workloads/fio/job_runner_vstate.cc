// JobRunner's verify state files (verify_state.h): verify_state_save's
// record of the last writes completed and the file made of it when the job
// ends, and verify_state_load's stop in the verification.
#include "workloads/fio/job_runner.h"

namespace storlab::fio {

// io_u.c file_log_write_comp(): each file's ring of its last iodepth
// completed writes.
void JobRunner::LogWriteComp(const IoUnit& u) {
  if (vlog_.write_comps.empty()) return;
  std::vector<uint64_t>& ring = vlog_.write_comps[u.file];
  size_t& idx = vlog_.write_comp_idx[u.file];
  ring[idx++] = u.offset;
  if (idx == ring.size()) idx = 0;
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

// do_verify() and do_io(): a verify read is checked against the state
// loaded (verify_state_should_stop(), with fio's io_blocks[DDIR_READ]).
bool JobRunner::VerifyStateStop(const IoUnit& u) const {
  if (spec_.verify == VerifyKind::kNone) return false;
  // do_io(): a read is verified when it is of the verify list, or the job
  // does not both read and write (!td_rw()).
  if (!u.ver_list && spec_.do_read && spec_.do_write) return false;
  return VerifyStateStops(*vlog_.loaded, done_ios_[kRead], u.file, u.offset);
}

}  // namespace storlab::fio
