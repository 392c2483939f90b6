// Parity of one stripe row: P (XOR) and Q (the RAID6 Reed-Solomon syndrome)
// over the data blocks of a row, read-modify-write updates, and recovery of
// up to two lost data blocks (lib/raid6/recov.c's algebra).
//
// A "row" is the same byte range of every chunk of one stripe; data[j] is
// the block of data chunk j (the j-th data chunk in array order), so
// Q = sum g^j * D_j exactly as md computes it. Pure functions, thread-safe.
#ifndef STORLAB_SIM_LAYERS_RAID_PARITY_H_
#define STORLAB_SIM_LAYERS_RAID_PARITY_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace storlab::parity {

// p = XOR of the data blocks; q (unless nullptr) = sum of g^j * data[j].
// REQUIRES: every data[j] != nullptr; p != nullptr.
void Compute(const std::vector<const uint8_t*>& data, size_t len, uint8_t* p, uint8_t* q);

// Folds the change of data block j into the parity (read-modify-write):
// delta = old ^ new; p ^= delta; q ^= g^j * delta. p or q may be nullptr.
void ApplyDelta(int j, const uint8_t* delta, size_t len, uint8_t* p, uint8_t* q);

// Rebuilds the data blocks listed in `lost` (one or two indexes) into the
// buffers data[lost[i]] from the other data blocks and the parity.
// REQUIRES: one lost block and p or q present, or two and both present.
void Recover(const std::vector<uint8_t*>& data, const std::vector<int>& lost, const uint8_t* p,
             const uint8_t* q, size_t len);

}  // namespace storlab::parity

#endif  // STORLAB_SIM_LAYERS_RAID_PARITY_H_
