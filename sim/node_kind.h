// NodeKind: which model a node is, as a type rather than a string, and
// NodeAs<T>(): the typed view of a node of that model (LLVM's isa/dyn_cast
// idea), so readers of a stack (the explainer, the host, reports) reach a
// model's typed accessors instead of comparing type() strings or looking
// figures up by name. A model declares `static constexpr NodeKind kKind`
// and returns it from kind(); nodes that are no catalog model (tests' own)
// are kOther. Plain data; thread-safe.
#ifndef STORLAB_SIM_NODE_KIND_H_
#define STORLAB_SIM_NODE_KIND_H_

#include <cstdint>
#include <type_traits>

namespace storlab {

enum class NodeKind : uint8_t {
  kOther,
  kRam,
  kHdd,
  kSsd,
  kLink,
  kNfs,
  kPageCache,
  kCache,
  kCacheMemory,
  kRaid,
  kThin,
  kZfs,
  kRmw,
  kConcat,
  kFaults,
  kVm,
  kVirtualDisk,
  kQcow2,
  kIscsi,
  kOracle,
};

// `node` as a T if it is one (its kind() is T::kKind), else nullptr; const
// if `node` is.
template <class T, class N>
auto NodeAs(N* node) -> std::conditional_t<std::is_const_v<N>, const T*, T*> {
  using Out = std::conditional_t<std::is_const_v<N>, const T*, T*>;
  return node != nullptr && node->kind() == T::kKind ? static_cast<Out>(node) : nullptr;
}

}  // namespace storlab

#endif  // STORLAB_SIM_NODE_KIND_H_
