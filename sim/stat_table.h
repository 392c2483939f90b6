// StatTable: a model's own figures as one table of {name, unit, reader}
// (fio's option table idea, applied to what a model reports), so the JSON,
// the normal output and the explanations read the same fields and cannot
// drift apart. A model keeps its counters in a struct, lists them once:
//
//   static constexpr StatField<Hdd::Counters> kStats[] = {
//       Field<&Hdd::Counters::seeks>("seeks", kCount), ...};
//
// and its AppendStats() appends the table; readers that need one figure use
// the model's typed accessor (counters().seeks), never a name. Units are
// checked by tests (every stat of every catalog stack has one) and listed
// by `storlab stacks show`. Plain data; thread-safe.
#ifndef STORLAB_SIM_STAT_TABLE_H_
#define STORLAB_SIM_STAT_TABLE_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "sim/node_stats.h"

namespace storlab {

// The units a figure may have.
inline constexpr std::string_view kCount = "count";
inline constexpr std::string_view kBytes = "bytes";
inline constexpr std::string_view kNanos = "ns";
inline constexpr std::string_view kMillis = "ms";
inline constexpr std::string_view kBytesPerSecond = "bytes/s";
inline constexpr std::string_view kRatio = "ratio";
inline constexpr std::string_view kPercent = "%";
inline constexpr std::string_view kCylinders = "cylinders";
inline constexpr std::string_view kFlag = "0/1";

// One figure of a model whose state (or counters) is a T.
template <class T>
struct StatField {
  std::string_view name;
  std::string_view unit;
  double (*read)(const T&);
};

namespace stat_table_internal {
template <class M>
struct MemberOf;
template <class C, class V>
struct MemberOf<V C::*> {
  using Class = C;
};
}  // namespace stat_table_internal

// A counter, a Nanos (its count of ns), a double or a bool as a figure.
template <class V>
constexpr double StatNumber(const V& v) {
  if constexpr (requires { v.count(); }) {
    return static_cast<double>(v.count());
  } else {
    return static_cast<double>(v);
  }
}

// A field that is a plain member of the counters struct C.
template <auto Member>
constexpr auto Field(std::string_view name, std::string_view unit) {
  using C = typename stat_table_internal::MemberOf<decltype(Member)>::Class;
  return StatField<C>{name, unit, [](const C& c) { return StatNumber(c.*Member); }};
}

// Appends every field of `table`, read from `from`, names prefixed.
template <class T, size_t N>
void AppendStatTable(const T& from, const StatField<T> (&table)[N], StatList& out,
                     std::string_view prefix = {}) {
  for (const StatField<T>& f : table) {
    out.push_back({std::string(prefix) + std::string(f.name), f.read(from), f.unit});
  }
}

}  // namespace storlab

#endif  // STORLAB_SIM_STAT_TABLE_H_
