// What fresh memory costs a RAM store on this machine (docs/fusefs.md, the
// 4K-write ceiling): a store that grows takes a new page from its
// PageArena for every page it has never held, with the engine held. Takes
// GIB GiB of pages from a PageArena in huge mode (2 MiB chunks advised
// MADV_HUGEPAGE and populated at once: the service's stores) and in the
// default mode (64-page chunks, MAP_POPULATE: the stores a power-cut check
// forks), timing the arena's New() (the populate) and then one user write
// to each page (a guest whose hypervisor shadows its page tables pays an
// exit on a page's first user write). Each pass frees its arena: the pass
// right after one shows memory the kernel has just taken back; a guest that
// reports free memory to its host (virtio-balloon's free page reporting)
// hands it back within seconds, and it is fresh again.
//
//   storlab_bench_first_touch [GIB]
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "sim/store/page_arena.h"

namespace storlab {
namespace {

double Seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void Pass(const char* what, size_t bytes, bool huge) {
  const size_t pages = bytes / PageArena::kPage;
  std::vector<uint8_t*> got(pages);
  PageArena arena(huge ? PageArena::Chunks::kHuge : PageArena::Chunks::kSmall);
  const double t0 = Seconds();
  for (auto& p : got) p = arena.New();
  const double t1 = Seconds();
  for (uint8_t* p : got) *static_cast<volatile uint8_t*>(p) = 1;
  const double t2 = Seconds();
  const double n = static_cast<double>(pages), chunk_mib = huge ? 2.0 : 0.25;
  std::printf(
      "%-28s New() %5.2f ms a %.2f MiB chunk, first write %5.2f us a page: %5.2f us a "
      "4 KiB page in all\n",
      what, (t1 - t0) * 1e3 / (n * 4096 / (chunk_mib * 1048576)), chunk_mib, (t2 - t1) * 1e6 / n,
      (t2 - t0) * 1e6 / n);
}

}  // namespace
}  // namespace storlab

int main(int argc, char** argv) {
  const size_t gib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 2;
  const size_t bytes = (gib == 0 ? 1 : gib) << 30;
  storlab::Pass("huge mode", bytes, true);
  storlab::Pass("huge mode, just freed", bytes, true);
  std::this_thread::sleep_for(std::chrono::seconds(5));
  storlab::Pass("64-page chunks, 5 s later", bytes, false);
  storlab::Pass("64-page chunks, just freed", bytes, false);
  return 0;
}
