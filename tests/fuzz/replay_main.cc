// A main() for fuzz targets in builds without libFuzzer: runs every file
// named on the command line (a directory: every file in it, sorted) through
// LLVMFuzzerTestOneInput once. The replay ctests use it so the regression
// corpus and the seed corpora run in every build (release, sanitize, fuzz).
//
//   stack_replay tests/fuzz/regression/stack sim/profile/catalog
//
// Exits 0 when every input ran (an invariant violation aborts), 1 when an
// input cannot be read, and prints how many inputs ran.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

bool RunFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
    return false;
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // A copy of exactly `size` bytes, so ASan sees any read past the end.
  std::vector<uint8_t> data(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(data.empty() ? nullptr : data.data(), data.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  int ran = 0;
  bool ok = true;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path arg(argv[i]);
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::directory_iterator(arg)) {
        if (e.is_regular_file() && e.path().filename().string()[0] != '.') {
          files.push_back(e.path());
        }
      }
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        std::fprintf(stderr, "replay: %s\n", f.c_str());
        ok = RunFile(f) && ok;
        ++ran;
      }
    } else if (std::filesystem::exists(arg, ec)) {
      std::fprintf(stderr, "replay: %s\n", arg.c_str());
      ok = RunFile(arg) && ok;
      ++ran;
    }
    // A seed directory that does not exist yet (e.g. job files not written
    // yet) is skipped.
  }
  std::printf("replay: %d inputs ran%s\n", ran, ok ? "" : ", some could not be read");
  return ok ? 0 : 1;
}
