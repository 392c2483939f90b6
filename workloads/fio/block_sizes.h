// Variable block sizes: fio's bsrange= and bssplit=, parsed as fio 3.33
// parses them and drawn as its get_next_buflen() (io_u.c) draws them.
//
//   bsrange=1k-16k[,4k-64k[,...]]   a range per direction (read, write,
//                                   trim); one range applies to all, two
//                                   give trims the write range (parse.c
//                                   FIO_OPT_RANGE; "1k:16k" also works, and
//                                   a reversed range is swapped);
//   bssplit=4k/10:64k/50:32k,...    sizes with the percentage of I/Os each
//                                   gets; sizes without one share what is
//                                   left equally (options.c bssplit_ddir),
//                                   a direction left empty keeps bs=.
//
// A drawn size is aligned down to the smallest size (unless bs_unaligned)
// and must fit between the offset and the file's end: fio draws again until
// it does. With one size (min == max) nothing is drawn, so jobs with a fixed
// bs see no change in their random streams. Thread-compatible.
#ifndef STORLAB_WORKLOADS_FIO_BLOCK_SIZES_H_
#define STORLAB_WORKLOADS_FIO_BLOCK_SIZES_H_

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/status.h"
#include "workloads/fio/fio_rand.h"

namespace storlab::fio {

struct BsSplit {
  uint64_t bs = 0;
  uint32_t perc = 0;
};

// The sizes of one direction. `split` is empty for a plain range.
struct DirBlockSizes {
  uint64_t min = 4096, max = 4096;
  std::vector<BsSplit> split;  // in fio's lookup order (by percentage)
  bool variable() const { return min != max; }
  static DirBlockSizes Fixed(uint64_t bs) {
    DirBlockSizes d;
    d.min = d.max = bs;
    return d;
  }
};

// kRead, kWrite, kTrim as options.h's DirValues.
using BlockSizes = std::array<DirBlockSizes, 3>;

// Applies bsrange= / bssplit= over `sizes` (which start from bs=), their
// sizes read with kb_base's prefixes (fio_units.h). Errors name the part
// of `value` that is wrong; `sizes` is unchanged then.
Status ApplyBsrange(std::string_view value, BlockSizes* sizes, int kb_base = 1024);
Status ApplyBssplit(std::string_view value, BlockSizes* sizes, int kb_base = 1024);

// For the option table's value checks.
Status CheckBsrange(std::string_view value);
Status CheckBssplit(std::string_view value);

// Draws one direction's sizes from its own random stream (fio's
// bsrange_state[ddir], 32-bit Tausworthe).
class BuflenPicker {
 public:
  BuflenPicker(const DirBlockSizes& sizes, bool unaligned, uint64_t seed);
  // The size of an I/O with `room` bytes between its offset and the end of
  // the file; 0 if not even the smallest size fits.
  uint64_t Next(uint64_t room);

 private:
  const DirBlockSizes& sizes_;
  bool unaligned_;
  Taus88 rng_;
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_BLOCK_SIZES_H_
