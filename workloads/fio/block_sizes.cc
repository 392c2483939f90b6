#include "workloads/fio/block_sizes.h"

#include <algorithm>
#include <string>

#include "sim/quoted.h"
#include "workloads/fio/fio_units.h"

namespace storlab::fio {
namespace {

constexpr size_t kMaxSplits = 64;  // fio's BSSPLIT_MAX (thread_options.h)

std::vector<std::string_view> Split(std::string_view v, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (;;) {
    size_t c = v.find(sep, start);
    parts.push_back(v.substr(start, c == std::string_view::npos ? c : c - start));
    if (c == std::string_view::npos) break;
    start = c + 1;
  }
  return parts;
}

Status Bad(std::string_view part, const std::string& why) {
  return Status::InvalidArgument(Quoted(part) + ": " + why);
}

Result<uint64_t> Size(std::string_view text, int kb_base) {
  auto r = ParseFioSize(text, kb_base);
  if (!r.ok()) return r.status();
  if (*r == 0) return Bad(text, "a block size must be at least 1 byte");
  return *r;
}

// One range, "1k-16k" or "1k:16k" (parse.c FIO_OPT_RANGE).
Result<DirBlockSizes> ParseRange(std::string_view part, int kb_base) {
  size_t sep = part.find('-');
  if (sep == std::string_view::npos) sep = part.find(':');
  if (sep == std::string_view::npos) return Bad(part, "a range is MIN-MAX (e.g. 4k-64k)");
  auto lo = Size(part.substr(0, sep), kb_base);
  if (!lo.ok()) return lo.status();
  auto hi = Size(part.substr(sep + 1), kb_base);
  if (!hi.ok()) return hi.status();
  DirBlockSizes d;
  d.min = std::min(*lo, *hi);
  d.max = std::max(*lo, *hi);
  return d;
}

// One direction's split, "4k/10:64k/50:32k" (options.c split_parse_ddir and
// bssplit_ddir). Empty: the direction keeps its sizes (*given false).
Result<DirBlockSizes> ParseSplit(std::string_view part, bool* given, int kb_base) {
  *given = false;
  DirBlockSizes d;
  if (part.empty()) return d;
  constexpr uint32_t kMissing = UINT32_MAX;
  uint32_t sum = 0, missing = 0;
  for (std::string_view entry : Split(part, ':')) {
    if (entry.empty()) break;  // split_parse_ddir stops at an empty entry
    if (d.split.size() == kMaxSplits) {
      return Bad(part, "at most " + std::to_string(kMaxSplits) + " sizes per direction");
    }
    size_t slash = entry.find('/');
    auto bs = Size(entry.substr(0, slash), kb_base);
    if (!bs.ok()) return bs.status();
    uint32_t perc = kMissing;
    if (slash != std::string_view::npos) {
      std::string_view p = entry.substr(slash + 1);
      if (!p.empty()) {
        if (p.size() > 9 || p.find_first_not_of("0123456789") != std::string_view::npos) {
          return Bad(entry, "the percentage after '/' must be a whole number");
        }
        perc = static_cast<uint32_t>(std::stoul(std::string(p)));
        perc = std::min<uint32_t>(perc, 100);  // fio clamps at 100
        if (perc == 0) perc = kMissing;        // and takes 0 as "not given"
      }
    }
    if (perc == kMissing) {
      ++missing;
    } else {
      sum += perc;
    }
    d.split.push_back({*bs, perc});
  }
  if (d.split.empty()) return d;
  if (sum > 100) {
    return Bad(part, "the percentages add up to " + std::to_string(sum) + "%, more than 100%");
  }
  // Sizes without a percentage share what is left.
  for (BsSplit& s : d.split) {
    if (s.perc == kMissing) s.perc = (100 - sum) / missing;
  }
  d.min = d.split[0].bs;
  d.max = d.split[0].bs;
  for (const BsSplit& s : d.split) {
    d.min = std::min(d.min, s.bs);
    d.max = std::max(d.max, s.bs);
  }
  // fio sorts by percentage (bs_cmp) for its cumulative lookup; a stable
  // sort keeps the written order among equal shares, as glibc's qsort
  // (a merge sort) does.
  std::stable_sort(d.split.begin(), d.split.end(),
                   [](const BsSplit& a, const BsSplit& b) { return a.perc < b.perc; });
  *given = true;
  return d;
}

}  // namespace

Status ApplyBsrange(std::string_view value, BlockSizes* sizes, int kb_base) {
  std::vector<std::string_view> parts = Split(value, ',');
  if (parts.size() > 3) return Bad(value, "at most three ranges (read,write,trim)");
  BlockSizes out = *sizes;
  for (size_t i = 0; i < parts.size(); ++i) {
    auto r = ParseRange(parts[i], kb_base);
    if (!r.ok()) return r.status();
    // One range: every direction; two: trims take the second (parse.c).
    for (size_t d = i; d < 3; ++d) {
      if (d == i || i + 1 == parts.size()) out[d] = *r;
    }
  }
  *sizes = out;
  return Status();
}

Status ApplyBssplit(std::string_view value, BlockSizes* sizes, int kb_base) {
  std::vector<std::string_view> parts = Split(value, ',');
  if (parts.size() > 3) return Bad(value, "at most three lists (read,write,trim)");
  BlockSizes out = *sizes;
  for (size_t i = 0; i < parts.size(); ++i) {
    bool given = false;
    auto r = ParseSplit(parts[i], &given, kb_base);
    if (!r.ok()) return r.status();
    if (!given) continue;
    // options.c str_split_parse: one list applies to all directions; with
    // two, trims take the write list.
    for (size_t d = i; d < 3; ++d) {
      if (d == i || i + 1 == parts.size()) out[d] = *r;
    }
  }
  *sizes = out;
  return Status();
}

Status CheckBsrange(std::string_view value) {
  BlockSizes s;
  return ApplyBsrange(value, &s);
}

Status CheckBssplit(std::string_view value) {
  BlockSizes s;
  return ApplyBssplit(value, &s);
}

BuflenPicker::BuflenPicker(const DirBlockSizes& sizes, bool unaligned, uint64_t seed)
    : sizes_(sizes), unaligned_(unaligned), rng_(seed) {}

// io_u.c get_next_buflen().
uint64_t BuflenPicker::Next(uint64_t room) {
  const uint64_t min = sizes_.min, max = sizes_.max;
  if (min == max) return min;
  if (min > room) return 0;
  // A split whose only sizes that fit have no share would draw forever.
  if (!sizes_.split.empty() &&
      std::none_of(sizes_.split.begin(), sizes_.split.end(),
                   [&](const BsSplit& s) { return s.perc && s.bs <= room; })) {
    return 0;
  }
  constexpr uint64_t kRandMax = UINT32_MAX;  // rand_max() of a 32-bit Tausworthe
  for (;;) {
    const uint64_t r = rng_.Next();
    uint64_t len = 0;
    if (sizes_.split.empty()) {
      len = min + static_cast<uint64_t>(static_cast<double>(max) *
                                        (static_cast<double>(r) / (kRandMax + 1.0)));
    } else {
      uint64_t perc = 0;
      for (const BsSplit& s : sizes_.split) {
        if (!s.perc) continue;
        len = s.bs;
        perc += s.perc;
        if (r / perc <= kRandMax / 100 && len <= room) break;
      }
    }
    if (!unaligned_) {
      if ((min & (min - 1)) == 0) {
        len &= ~(min - 1);
      } else {
        len -= len % min;
      }
    }
    len = std::min(len, max);
    if (len && len <= room) return len;
  }
}

}  // namespace storlab::fio
