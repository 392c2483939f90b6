// ZfsSample: the bytes of a sample of a pool's records, for runs that keep
// no data, so that a txg can compress records with the real compressor.
//
// ZFS compresses whole records (zfs_compress.h), so a record's size on disk
// depends on all of its bytes: the ones written in this txg and the ones
// it held before. A run that keeps no data has neither, and keeping every
// dirty record's bytes would cost as much as keeping data (a 4 GiB file of
// 4 KiB random writes dirties ~5000 128 KiB records per txg; compressing
// them all runs the real compressor over ~30x the bytes the workload wrote,
// tens of seconds of wall time per simulated minute). So the pool keeps
// the bytes of a sample of records, for the whole run, and compresses
// those for real (at most kPerTxg per txg); every other record of a txg
// takes the outcome of a sampled record of the same txg (round robin over
// them, so the txg's mix of compressed and stored records is the
// sample's), or of the last txg that had one, or, before any, the stack's
// `compress_ratio`.
//
// Which records: the first kFirst records written, then one in kStride
// (chosen by a hash of the record number, so a stride in the workload
// does not alias with it), while the sample holds at most kMaxBytes. A
// record enters the sample when first written; what it held before is
// zeros when it has no block (a hole) and otherwise unknown, taken as
// random bytes (data written before the run: a laid-out file is random,
// as fio lays files out). Writes then patch it with the bytes they carry;
// trims and write-zeroes zero it. A write that carries no bytes makes its
// records unknown: they leave the sample. A power cut keeps the sample as
// it is (the lost txgs' bytes stay in it; timing-only runs rarely cut).
//
// Cost: at most kMaxBytes of memory (128 MiB) per pool, a copy of the
// bytes of writes to sampled records, and the real compressor on ~1/64 of
// the records a txg writes, at most kPerTxg (64) of them per txg, evenly
// spread over the txg's sampled records.
// Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_ZFS_ZFS_SAMPLE_H_
#define STORLAB_SIM_LAYERS_ZFS_ZFS_SAMPLE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "sim/status.h"

namespace storlab {

class StateReader;
class StateWriter;

class ZfsSample {
 public:
  static constexpr uint64_t kFirst = 64;
  static constexpr uint64_t kStride = 64;
  static constexpr uint64_t kMaxBytes = uint64_t{128} << 20;
  static constexpr size_t kPerTxg = 64;  // sampled records a txg compresses, at most

  // REQUIRES: record_size > 0.
  ZfsSample(uint64_t record_size, uint64_t seed);
  ZfsSample(const ZfsSample&) = delete;
  ZfsSample& operator=(const ZfsSample&) = delete;

  // A write of [offset, offset + length) carrying `data` (nullptr: no
  // bytes). `has_block(rec)`: the record holds committed data.
  template <typename HasBlock>
  void Write(uint64_t offset, uint64_t length, const uint8_t* data, HasBlock has_block);
  // Trim or write-zeroes: the range reads as zeros.
  void Zero(uint64_t offset, uint64_t length);
  // Record `rec`'s bytes (record_size of them), or nullptr when it is not
  // in the sample.
  const uint8_t* Bytes(uint64_t rec) const;
  uint64_t records() const { return records_.size(); }
  // storlab sim --state (zfs_state.cc): how many records were considered,
  // which (runs of record numbers), and the kept records' bytes.
  void SaveState(StateWriter& w) const;
  // `max_records`: the dataset's records (bounds what a file may claim).
  Status RestoreState(StateReader& r, uint64_t max_records);

 private:
  uint8_t* Enter(uint64_t rec, bool has_block);
  void Patch(uint64_t offset, uint64_t length, const uint8_t* data);

  const uint64_t record_size_;
  const uint64_t seed_;
  uint64_t considered_ = 0;  // records ever written
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> records_;
  std::vector<bool> seen_;  // records considered once (kept or not), by number
};

template <typename HasBlock>
void ZfsSample::Write(uint64_t offset, uint64_t length, const uint8_t* data, HasBlock has_block) {
  const uint64_t rs = record_size_;
  for (uint64_t rec = offset / rs; rec <= (offset + length - 1) / rs; ++rec) {
    if (rec >= seen_.size()) seen_.resize(std::max<uint64_t>(rec + 1, seen_.size() * 2));
    if (!seen_[rec]) {
      seen_[rec] = true;
      Enter(rec, has_block(rec));
    }
    if (data == nullptr) records_.erase(rec);
  }
  if (data != nullptr) Patch(offset, length, data);
}

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_ZFS_ZFS_SAMPLE_H_
