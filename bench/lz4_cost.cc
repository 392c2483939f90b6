// What LZ4's work costs, per unit of the work ZfsCompressor reads back from
// each block (zfs_compress.h, Lz4Work): liblz4 compresses 128 KiB records of
// several kinds under ZFS's output bound and decompresses them, each timed
// (best of 5 x 20 calls, one core), and least-squares fits (relative error)
// of compression time = probes x a + matched bytes x b + sequences x c and
// of decompression time = literal bytes x d + matched bytes x e +
// sequences x f give the costs. Printed: each kind's LZ4 ratio (its bytes
// over its blocks'), measured and fitted speeds (the fits' errors), the
// costs on this machine, and the costs scaled so that the fits run the
// typical kind (shared libraries: LZ4 ratio 2.2, like the Silesia corpus's
// 2.1 in lz4's README) at TYPICAL_MB_S and TYPICAL_DECOMPRESS_MB_S, the
// published per-core figures zfs_compress.h uses (500 and 1500).
//
//   storlab_bench_lz4 [TYPICAL_MB_S [TYPICAL_DECOMPRESS_MB_S]]
//
// The kinds: this machine's shared libraries, headers and documentation
// (/usr/lib/x86_64-linux-gnu, /usr/include, /usr/share/doc: files read in
// name order, 60 records each); test A's records (fio's 4 KiB buffers, 1, 4
// or 32 of them as its iodepth, scrambled before each write as fio does
// (fio::IoBuffers), in 8 or all 32 blocks of a record of a sparse file); and
// fio's buffer_compress_percentage patterns (25 to 90 % zeros per 4 KiB).
// A figure for zfs_compress.h, never asserted.
#include <lz4.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/layers/zfs/zfs_compress.h"
#include "sim/random.h"
#include "workloads/fio/io_buffers.h"

namespace storlab {
namespace {

constexpr uint64_t kRecord = 128 * 1024;
constexpr size_t kPerKind = 60;

struct Sample {
  std::string kind;
  double probes = 0, literals = 0, matched = 0, sequences = 0;
  double seconds = 0;
  double out_bytes = 0;   // the block's size
  double decompress = 0;  // seconds to decompress it
};

// One record compressed as ZFS does (zfs_lz4_compress_buf: the bound less
// its 4-byte header) and timed; false if it does not fit the bound.
bool Measure(const std::string& kind, const uint8_t* data, std::vector<Sample>* out) {
  const int bound = static_cast<int>(ZfsCompressor::MaxSize(kRecord) - 4);
  std::vector<char> block(static_cast<size_t>(bound));
  const char* src = reinterpret_cast<const char*>(data);
  const int n = LZ4_compress_default(src, block.data(), kRecord, bound);
  if (n <= 0) return false;
  const auto w = ZfsCompressor::Lz4WorkOf(reinterpret_cast<const uint8_t*>(block.data()),
                                          static_cast<uint64_t>(n));
  std::vector<char> back(kRecord);
  auto best_of = [](auto&& fn) {
    double best = 1e9;
    for (int rep = 0; rep < 5; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int k = 0; k < 20; ++k) fn();
      const std::chrono::duration<double> d = std::chrono::steady_clock::now() - t0;
      best = std::min(best, d.count() / 20);
    }
    return best;
  };
  const double c = best_of([&] { LZ4_compress_default(src, block.data(), kRecord, bound); });
  const double d = best_of([&] { LZ4_decompress_safe(block.data(), back.data(), n, kRecord); });
  out->push_back({kind, static_cast<double>(w.probes), static_cast<double>(w.literal_bytes),
                  static_cast<double>(w.matched_bytes), static_cast<double>(w.sequences), c,
                  static_cast<double>(n), d});
  return true;
}

// Up to `bytes` of the regular files under `dir`, in name order.
std::vector<uint8_t> Corpus(const std::string& dir, uint64_t bytes) {
  std::vector<std::string> names;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(
           dir, std::filesystem::directory_options::skip_permission_denied, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec) && !it->is_symlink(ec)) names.push_back(it->path().string());
  }
  std::sort(names.begin(), names.end());
  std::vector<uint8_t> out;
  for (const std::string& name : names) {
    std::ifstream f(name, std::ios::binary);
    out.insert(out.end(), std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    if (out.size() >= bytes) break;
  }
  return out;
}

void CorpusKind(const std::string& kind, const std::string& dir, std::vector<Sample>* out) {
  const std::vector<uint8_t> c = Corpus(dir, 64 * kRecord * kPerKind);
  const size_t records = c.size() / kRecord;
  if (records == 0) {
    std::fprintf(stderr, "lz4_cost: %s: nothing to read, kind %s left out\n", dir.c_str(),
                 kind.c_str());
    return;
  }
  for (size_t i = 0; i < kPerKind && i < records; ++i)
    Measure(kind, c.data() + i * (records / std::min(records, kPerKind)) * kRecord, out);
}

// A record of a sparse file as fio's random 4 KiB writes leave it (test A):
// `written` of its 32 blocks copies of fio's buffers (`slots` of them, its
// iodepth; fio::IoBuffers, scrambled before each write as fio does, with
// other writes to other records in between), the rest zeros.
void FioRecordsKind(size_t slots, int written, Random& rng, std::vector<Sample>* out) {
  fio::IoBuffers bufs(slots, 4096, rng.Next());
  std::vector<uint8_t> rec(kRecord);
  int64_t now = 0;
  auto write = [&](uint64_t offset) {
    const size_t slot = rng.Next() % slots;
    now += 20'000 + static_cast<int64_t>(rng.Next() % 20'000);
    bufs.BeforeWrite(slot, 4096, offset, Nanos(now));
    return bufs.slot(slot);
  };
  for (size_t rep = 0; rep < kPerKind / 6; ++rep) {
    std::fill(rec.begin(), rec.end(), 0);
    for (int b = 0; b < written; ++b) {
      for (uint64_t k = rng.Next() % 64; k > 0; --k) write(rng.Next() % (1 << 20) * 4096);
      const uint64_t at = static_cast<uint64_t>(b) * 4096;
      std::memcpy(rec.data() + at, write(at), 4096);
    }
    Measure("fio A, " + std::to_string(slots) + " buf, " + std::to_string(written) + "/32",
            rec.data(), out);
  }
}

// fio's buffer_compress_percentage: each 4 KiB random, then zeros.
void PercentKind(int percent, Random& rng, std::vector<Sample>* out) {
  std::vector<uint8_t> rec(kRecord);
  for (size_t rep = 0; rep < kPerKind / 6; ++rep) {
    std::fill(rec.begin(), rec.end(), 0);
    for (uint64_t at = 0; at < kRecord; at += 4096)
      rng.Fill(rec.data() + at, 4096 * static_cast<uint64_t>(100 - percent) / 100);
    Measure("fio compress " + std::to_string(percent) + "%", rec.data(), out);
  }
}

// A least-squares fit of time(x) = f(x) . c over the records, each
// weighted by 1 / its time squared: the relative error is minimised, so
// the fast kinds count as much as the slow ones. False if singular.
template <typename Features, typename Time>
bool Fit(const std::vector<Sample>& s, Features features, Time time, double c[3]) {
  double a[3][4] = {};
  for (const Sample& x : s) {
    double f[3];
    features(x, f);
    const double t = time(x), w = 1 / (t * t);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) a[i][j] += w * f[i] * f[j];
      a[i][3] += w * f[i] * t;
    }
  }
  for (int i = 0; i < 3; ++i) {
    int p = i;
    for (int r = i + 1; r < 3; ++r)
      if (std::fabs(a[r][i]) > std::fabs(a[p][i])) p = r;
    for (int j = 0; j < 4; ++j) std::swap(a[i][j], a[p][j]);
    if (a[i][i] == 0) return false;
    for (int r = 0; r < 3; ++r) {
      if (r == i) continue;
      const double k = a[r][i] / a[i][i];
      for (int j = 0; j < 4; ++j) a[r][j] -= k * a[i][j];
    }
  }
  for (int i = 0; i < 3; ++i) c[i] = a[i][3] / a[i][i];
  return true;
}

// Compression: probes, matched bytes, sequences (LZ4_compress_generic's
// search, match extension and emission). Decompression: literal bytes,
// matched bytes, sequences (LZ4_decompress_generic's copies and decoding).
void CompressionWork(const Sample& x, double f[3]) {
  f[0] = x.probes;
  f[1] = x.matched;
  f[2] = x.sequences;
}
void DecompressionWork(const Sample& x, double f[3]) {
  f[0] = x.literals;
  f[1] = x.matched;
  f[2] = x.sequences;
}

int Main(int argc, char** argv) {
  const double typical = argc > 1 ? std::atof(argv[1]) : 500;
  const double typical_decompress = argc > 2 ? std::atof(argv[2]) : 1500;
  if (typical <= 0 || typical_decompress <= 0) {
    std::fprintf(stderr, "usage: storlab_bench_lz4 [TYPICAL_MB_S [TYPICAL_DECOMPRESS_MB_S]]\n");
    return 2;
  }
  std::vector<Sample> s;
  CorpusKind("shared libraries", "/usr/lib/x86_64-linux-gnu", &s);
  CorpusKind("headers", "/usr/include", &s);
  CorpusKind("documentation", "/usr/share/doc", &s);
  Random rng(1);
  for (size_t k : {1, 4, 32})
    for (int written : {8, 32}) FioRecordsKind(k, written, rng, &s);
  for (int p : {25, 50, 75, 90}) PercentKind(p, rng, &s);
  double c[3], dc[3];
  if (s.empty() ||
      !Fit(
          s, CompressionWork, [](const Sample& x) { return x.seconds; }, c) ||
      !Fit(
          s, DecompressionWork, [](const Sample& x) { return x.decompress; }, dc)) {
    std::fprintf(stderr, "lz4_cost: no records to fit\n");
    return 1;
  }
  auto model = [](const Sample& x, const double k[3], void (*features)(const Sample&, double*)) {
    double f[3];
    features(x, f);
    return f[0] * k[0] + f[1] * k[1] + f[2] * k[2];
  };
  std::printf("%-22s %6s | %-29s | %-29s\n", "", "", "compression", "decompression");
  std::printf("%-22s %6s | %8s %8s %10s | %8s %8s %10s\n", "kind", "ratio", "measured", "fitted",
              "error", "measured", "fitted", "error");
  double typical_here = 0, typical_decompress_here = 0;
  for (size_t i = 0; i < s.size();) {
    size_t j = i;
    double t = 0, m = 0, r = 0, dt = 0, dm = 0;
    for (; j < s.size() && s[j].kind == s[i].kind; ++j) {
      t += s[j].seconds;
      m += model(s[j], c, CompressionWork);
      r += s[j].out_bytes;
      dt += s[j].decompress;
      dm += model(s[j], dc, DecompressionWork);
    }
    const double n = static_cast<double>(j - i), mb = n * kRecord / 1e6;
    std::printf("%-22s %6.2f | %8.0f %8.0f %+9.1f%% | %8.0f %8.0f %+9.1f%%\n", s[i].kind.c_str(),
                mb * 1e6 / r, mb / t, mb / m, (t / m - 1) * 100, mb / dt, mb / dm,
                (dt / dm - 1) * 100);
    if (s[i].kind == "shared libraries") {
      typical_here = mb / m;
      typical_decompress_here = mb / dm;
    }
    i = j;
  }
  std::printf("(MB/s; error: measured time over fitted, less 1)\n");
  std::printf("here: %.3f ns per probe, %.4f ns per matched byte, %.2f ns per sequence\n",
              c[0] * 1e9, c[1] * 1e9, c[2] * 1e9);
  if (typical_here > 0) {
    const double k = typical_here / typical;
    std::printf(
        "scaled x%.2f (shared libraries fitted %.0f MB/s here -> %.0f): %.2f ns, %.4f ns, "
        "%.1f ns\n",
        k, typical_here, typical, c[0] * 1e9 * k, c[1] * 1e9 * k, c[2] * 1e9 * k);
    const double kd = typical_decompress_here / typical_decompress;
    std::printf(
        "decompression here: %.4f ns per literal byte, %.4f ns per matched byte, %.2f ns "
        "per sequence\nscaled x%.2f (shared libraries fitted %.0f MB/s here -> %.0f): "
        "%.4f ns, %.4f ns, %.2f ns\n",
        dc[0] * 1e9, dc[1] * 1e9, dc[2] * 1e9, kd, typical_decompress_here, typical_decompress,
        dc[0] * 1e9 * kd, dc[1] * 1e9 * kd, dc[2] * 1e9 * kd);
  }
  return 0;
}

}  // namespace
}  // namespace storlab

int main(int argc, char** argv) { return storlab::Main(argc, argv); }
