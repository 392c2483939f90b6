// What fresh anonymous memory costs on this machine (docs/fusefs.md, the
// 4K-write ceiling): a RAM store that grows takes new memory for every page
// it has never held, with the engine held. Maps GIB GiB in 2 MiB-aligned
// chunks the way PageArena's huge mode does (MADV_HUGEPAGE, then
// MADV_POPULATE_WRITE), or in 4 KiB pages (MADV_NOHUGEPAGE, populated 2 MiB
// at a time), and times the populate and then one user write to each page
// (a guest whose hypervisor shadows its page tables pays an exit on a page's
// first user write). Each pass unmaps what it mapped: the pass right after
// one shows memory the kernel has just taken back; after a pause of a few
// seconds a guest that reports free memory to its host (virtio-balloon's
// free page reporting) has handed it back, and it is fresh again.
//
//   storlab_bench_first_touch [GIB]
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <thread>

namespace {

constexpr size_t kChunk = size_t{2} << 20, kPage = 4096;

double Seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void Pass(const char* what, size_t bytes, bool huge) {
  void* m =
      ::mmap(nullptr, bytes + kChunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  const auto base = reinterpret_cast<uintptr_t>(m);
  const size_t head = ((base + kChunk - 1) & ~(uintptr_t{kChunk} - 1)) - base;
  uint8_t* start = static_cast<uint8_t*>(m) + head;
  volatile uint8_t* a = start;
  ::madvise(start, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  const double t0 = Seconds();
#ifdef MADV_POPULATE_WRITE
  for (size_t off = 0; off < bytes; off += kChunk) {
    ::madvise(start + off, kChunk, MADV_POPULATE_WRITE);
  }
#endif
  const double t1 = Seconds();
  for (size_t off = 0; off < bytes; off += kPage) a[off] = 1;
  const double t2 = Seconds();
  const double chunks = static_cast<double>(bytes) / kChunk,
               pages = static_cast<double>(bytes) / kPage;
  std::printf(
      "%-26s populate %5.2f ms a 2 MiB chunk, first write %5.2f us a page: %5.2f us a "
      "4 KiB page in all\n",
      what, (t1 - t0) * 1e3 / chunks, (t2 - t1) * 1e6 / pages, (t2 - t0) * 1e6 / pages);
  ::munmap(m, bytes + kChunk);
}

}  // namespace

int main(int argc, char** argv) {
  const size_t gib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 2;
  const size_t bytes = (gib == 0 ? 1 : gib) << 30;
  Pass("huge pages", bytes, true);
  Pass("huge pages, just unmapped", bytes, true);
  std::this_thread::sleep_for(std::chrono::seconds(5));
  Pass("4 KiB pages, 5 s later", bytes, false);
  Pass("4 KiB, just unmapped", bytes, false);
  return 0;
}
