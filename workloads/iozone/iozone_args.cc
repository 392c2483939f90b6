#include "workloads/iozone/iozone_args.h"

#include <cctype>
#include <cstdint>
#include <sstream>

#include "sim/quoted.h"

namespace storlab::iozone {
namespace {

// iozone's sizes: a bare number is KiB; k, m, g multiply (powers of 1024).
Result<uint64_t> ParseKiB(const std::string& opt, const std::string& v) {
  size_t i = 0;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) ++i;
  if (i == 0) return Status::InvalidArgument("iozone " + opt + ": " + Quoted(v) + " is not a size");
  // No std::stoull: it throws past 2^64, and n * mult must not wrap either.
  uint64_t n = 0;
  for (size_t k = 0; k < i; ++k) {
    if (n > (UINT64_MAX - 9) / 10) {
      return Status::InvalidArgument("iozone " + opt + ": " + Quoted(v) + " is too large");
    }
    n = n * 10 + static_cast<uint64_t>(v[k] - '0');
  }
  std::string suffix = v.substr(i);
  uint64_t mult = 1024;
  if (suffix == "k" || suffix == "K") {
    mult = 1024;
  } else if (suffix == "m" || suffix == "M") {
    mult = 1024 * 1024;
  } else if (suffix == "g" || suffix == "G") {
    mult = 1024ull * 1024 * 1024;
  } else if (!suffix.empty()) {
    return Status::InvalidArgument("iozone " + opt + ": " + Quoted(v) + ": unknown suffix " +
                                   Quoted(suffix) + " (k, m or g)");
  }
  if (n == 0) return Status::InvalidArgument("iozone " + opt + ": must be positive");
  if (n > UINT64_MAX / mult) {
    return Status::InvalidArgument("iozone " + opt + ": " + Quoted(v) + " is too large");
  }
  return n * mult;
}

}  // namespace

Result<IozoneSpec> ParseIozoneArgs(const std::vector<std::string>& args) {
  IozoneSpec s;
  s.command = "iozone";
  for (const auto& a : args) s.command += " " + a;
  for (size_t k = 0; k < args.size(); ++k) {
    const std::string& a = args[k];
    if (a.size() < 2 || a[0] != '-') {
      return Status::InvalidArgument("iozone: unexpected argument " + Quoted(a));
    }
    char c = a[1];
    // Options with a value take it attached ("-i0") or as the next word.
    auto value = [&](std::string* out) -> Status {
      if (a.size() > 2) {
        *out = a.substr(2);
      } else if (k + 1 < args.size()) {
        *out = args[++k];
      } else {
        return Status::InvalidArgument("iozone: -" + std::string(1, c) + " needs a value");
      }
      return Status();
    };
    std::string v;
    switch (c) {
      case 'i': {
        RETURN_IF_ERROR(value(&v));
        if (v != "0" && v != "1" && v != "2") {
          return Status::InvalidArgument("iozone -i " + Quoted(v) +
                                         ": storlab sim runs tests 0 (write/rewrite), 1 "
                                         "(read/re-read) and 2 (random read/write)");
        }
        s.tests.push_back(v[0] - '0');
        break;
      }
      case 't': {
        RETURN_IF_ERROR(value(&v));
        int n = 0;
        try {
          n = std::stoi(v);
        } catch (...) {
        }
        if (n < 1 || n > 256) {
          return Status::InvalidArgument("iozone -t " + Quoted(v) + ": expected 1 to 256 children");
        }
        s.children = static_cast<uint32_t>(n);
        break;
      }
      case 's': {
        RETURN_IF_ERROR(value(&v));
        ASSIGN_OR_RETURN(s.file_size, ParseKiB("-s", v));
        break;
      }
      case 'r': {
        RETURN_IF_ERROR(value(&v));
        ASSIGN_OR_RETURN(s.record_size, ParseKiB("-r", v));
        break;
      }
      default:
        if (a.size() != 2) {
          return Status::InvalidArgument("iozone: unknown option " + Quoted(a));
        }
        switch (c) {
          case 'T':
            s.threads = true;
            break;
          case 'I':
            s.direct = true;
            break;
          case 'O':
            s.ops = true;
            break;
          case 'w':
            s.keep_files = true;
            break;
          case 'e':
            s.include_fsync = true;
            break;
          case 'o':
            s.sync_writes = true;
            break;
          default:
            return Status::InvalidArgument("iozone: option " + Quoted(a) +
                                           " is not supported by storlab sim (use -i, -t, -s, "
                                           "-r, -I, -O, -w, -T, -e, -o)");
        }
    }
  }
  if (s.children == 0) {
    return Status::InvalidArgument("iozone: storlab sim runs throughput mode only: give -t N");
  }
  if (s.tests.empty()) return Status::InvalidArgument("iozone: give the tests with -i");
  if (s.record_size > s.file_size) {
    return Status::InvalidArgument("iozone: the record size (-r) exceeds the file size (-s)");
  }
  return s;
}

Result<IozoneSpec> ParseIozoneCommand(const std::string& command) {
  std::istringstream in(command);
  std::vector<std::string> words;
  std::string w;
  while (in >> w) words.push_back(w);
  if (!words.empty() &&
      (words[0] == "iozone" ||
       (words[0].size() > 7 && words[0].substr(words[0].size() - 7) == "/iozone"))) {
    words.erase(words.begin());
  }
  return ParseIozoneArgs(words);
}

}  // namespace storlab::iozone
