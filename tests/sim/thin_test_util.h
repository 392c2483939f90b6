// Helpers for the thin layer's tests: a thin pool on a RAM disk built from
// stack text, and one-call writes of a chunk's first page.
#ifndef STORLAB_TESTS_SIM_THIN_TEST_UTIL_H_
#define STORLAB_TESTS_SIM_THIN_TEST_UTIL_H_

#include <string>
#include <utility>
#include <vector>

#include "sim/layers/thin/thin_node.h"
#include "tests/sim/test_util.h"

namespace storlab::testing {

inline constexpr uint64_t kChunk = 64 * 1024;

inline std::string ThinText(const std::string& keys, const std::string& pool = "1MiB",
                            const std::string& size = "1GiB") {
  return "[node.vol]\ntype = \"thin\"\nchild = \"pool\"\nvirtual_size = \"" + size + "\"\n" + keys +
         "\n[node.pool]\ntype = \"ram\"\ncapacity = \"" + pool + "\"\nlatency = \"100us\"\n";
}

struct Rig {
  LoadedStack s;
  ThinNode& vol;
  Node& pool;
};
inline Rig Make(Engine& e, const std::string& text) {
  auto s = MustLoadText(text, e);
  auto& vol = dynamic_cast<ThinNode&>(s.stack->root());
  Node& pool = *s.stack->Find("pool");
  return Rig{std::move(s), vol, pool};
}

inline IoResult WriteChunk(Engine& e, Node& n, uint64_t chunk, uint32_t flags = 0) {
  auto w = Pattern(4096, chunk + 1);
  return Write(e, n, chunk * kChunk, w, flags);
}

}  // namespace storlab::testing

#endif  // STORLAB_TESTS_SIM_THIN_TEST_UTIL_H_
