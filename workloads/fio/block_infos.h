// BlockInfos: fio's block error histogram (block_error_percentiles=1): for
// each trim-sized block of a job's one file, how many trims it has taken
// and its state (stat.h BLOCK_INFO: the state in the top 3 bits, the trim
// count below). Trims count when they complete (io_u.c trim_block_info()),
// a failed write or trim that fio had logged marks its block (iolog.c
// unlog_io_piece()); the report gives percentiles of the trim counts of
// the blocks ever trimmed or failed, and a count per state
// (stat.c calc_block_percentiles(), show_block_infos()).
//
// fio 3.33 (and fio's master to date) sorts these 32-bit entries reading
// each as a uint64_t (stat.c compare_block_infos()), which takes the
// neighbour's bits for the state and trips block_state_category()'s
// assert(0) as soon as two neighbouring blocks are not both unwritten:
// real fio prints the report only when a single block was trimmed. This
// sorts them as that function means to; a percentile of 100 reads past
// the end in fio and takes the last block here.
#ifndef STORLAB_WORKLOADS_FIO_BLOCK_INFOS_H_
#define STORLAB_WORKLOADS_FIO_BLOCK_INFOS_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace storlab::fio {

class BlockInfos {
 public:
  enum State : uint32_t { kUninit, kTrimmed, kWritten, kTrimFailure, kWriteFailure, kStates };
  // stat.h MAX_NR_BLOCK_INFOS.
  static constexpr uint64_t kMaxBlocks = 8192;

  struct Summary {
    std::vector<uint32_t> percentiles;  // one per listed percentile; empty: none trimmed
    std::array<uint32_t, kStates> states{};
  };

  // `blocks` entries, every one unwritten (filesetup.c setup_files()).
  void Reset(uint64_t blocks) { info_.assign(blocks, 0); }
  bool empty() const { return info_.empty(); }
  uint64_t size() const { return info_.size(); }
  // io_u.c trim_block_info(): a trim of block `idx` completed.
  void Trimmed(uint64_t idx);
  // iolog.c unlog_io_piece(): a logged trim (or write) of block `idx` failed.
  void Failed(uint64_t idx, bool trim);
  // stat.c block_state_names[]: "unwritten", "trimmed", ...
  static const char* StateName(uint32_t state);
  // calc_block_percentiles() over `plist` (sorted, as ThreadStat keeps it).
  Summary Summarize(const std::vector<double>& plist) const;
  // show_block_infos(): the normal output's two lines (or more: the
  // percentiles wrap at 75 columns).
  void AppendNormal(const std::vector<double>& plist, std::string* out) const;

 private:
  static constexpr uint32_t kShift = 29;
  static uint32_t Trims(uint32_t v) { return v & ((1u << kShift) - 1); }
  static uint32_t StateOf(uint32_t v) { return v >> kShift; }
  static uint32_t Make(uint32_t state, uint32_t trims) { return state << kShift | trims; }

  std::vector<uint32_t> info_;
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_BLOCK_INFOS_H_
