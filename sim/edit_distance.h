// EditDistance: the Levenshtein distance of two strings, for "did you mean
// 'iodepth'?" suggestions. Pure function, thread-safe.
#ifndef STORLAB_SIM_EDIT_DISTANCE_H_
#define STORLAB_SIM_EDIT_DISTANCE_H_

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

namespace storlab {

// Insertions, deletions and substitutions that turn `a` into `b`.
inline size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace storlab

#endif  // STORLAB_SIM_EDIT_DISTANCE_H_
