// VerifyLog: what a JobRunner knows of the blocks it wrote with verify=
// (fio's io_hist_list / io_hist_tree, filled by iolog.c log_io_piece()):
// the entries in write order, which the verify pass and verify_backlog read
// back (a block written again supersedes its older entry, as fio's rb-tree
// insert drops the overlapping io_piece), each unit's entry and expected
// header, the trim verify list over the entries (verify_trims.h), and the
// verify state files' (verify_state.h).
// Plain state; job_runner_verify.cc reads and updates it. Not thread-safe.
#ifndef STORLAB_WORKLOADS_FIO_VERIFY_LOG_H_
#define STORLAB_WORKLOADS_FIO_VERIFY_LOG_H_

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "workloads/fio/verify.h"
#include "workloads/fio/verify_state.h"
#include "workloads/fio/verify_trims.h"

namespace storlab::fio {

struct VerifyLog {
  std::vector<VerifyPiece> hist;
  std::vector<size_t> piece;      // per unit: its entry (a write's, or a verify read's)
  std::vector<VerifyBlock> unit;  // per unit: what its block should hold
  size_t live = 0;                // entries not yet verified (fio's io_hist_len)
  size_t pos = 0;                 // the next entry to verify
  std::map<std::pair<uint32_t, uint64_t>, size_t> index;  // (file, offset) → entry
  VerifyTrims trims;
  // verify_state_save: per file, its last iodepth writes completed (fio's
  // f->last_write_comp ring and last_write_idx; empty without it), and the
  // state file once the job is done; verify_state_load's state (null: none).
  std::vector<std::vector<uint64_t>> write_comps;
  std::vector<size_t> write_comp_idx;
  std::vector<uint8_t> saved;
  std::unique_ptr<VerifyState> loaded;

  // io_u.c file_log_write_comp(): a write to `file` at `offset` completed.
  void LogWriteComp(size_t file, uint64_t offset) {
    if (write_comps.empty()) return;
    write_comps[file][write_comp_idx[file]++] = offset;
    if (write_comp_idx[file] == write_comps[file].size()) write_comp_idx[file] = 0;
  }
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_VERIFY_LOG_H_
