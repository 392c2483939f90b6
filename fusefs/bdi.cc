#include "fusefs/bdi.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace storlab::fusefs {
namespace {

const char kBdiDir[] = "/sys/class/bdi/";

Result<long long> ReadNumber(const std::string& path) {
  std::ifstream in(path);
  long long v;
  if (!(in >> v)) return Status::NotFound("cannot read " + path);
  return v;
}

Status WriteNumber(const std::string& path, long long v) {
  std::ofstream out(path);
  out << v << "\n";
  out.flush();
  if (!out) {
    const int e = errno;
    std::string why = std::strerror(e);
    if (geteuid() != 0)
      why = "only root may change a bdi's limits (run as root, or drop the option)";
    return Status::NotPermitted("cannot write " + std::to_string(v) + " to " + path + ": " + why);
  }
  return Status();
}

// mountinfo escapes spaces and such in paths as \ooo.
std::string Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 3), nullptr, 8));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

std::string BdiSetting::ToString() const {
  std::string s = "bdi " + id + ": max_ratio " + std::to_string(max_ratio) + " %, strict_limit " +
                  std::to_string(strict_limit);
  if (max_bytes >= 0) s += ", max_bytes " + std::to_string(max_bytes);
  return s;
}

Result<std::string> FindBdi(const std::string& mountpoint) {
  char real[4096];
  std::string want = realpath(mountpoint.c_str(), real) ? real : mountpoint;
  std::ifstream in("/proc/self/mountinfo");
  std::string line, found;
  while (std::getline(in, line)) {
    // id parent MAJ:MIN root mountpoint ...
    std::istringstream f(line);
    std::string id, parent, dev, root, mp;
    if (!(f >> id >> parent >> dev >> root >> mp)) continue;
    if (Unescape(mp) == want) found = dev;  // the last one is on top
  }
  if (found.empty()) return Status::NotFound("no mount at " + want + " in /proc/self/mountinfo");
  return found;
}

Result<BdiSetting> ReadBdi(const std::string& id) {
  BdiSetting s;
  s.id = id;
  const std::string dir = kBdiDir + id + "/";
  ASSIGN_OR_RETURN(long long r, ReadNumber(dir + "max_ratio"));
  s.max_ratio = static_cast<int>(r);
  auto strict = ReadNumber(dir + "strict_limit");
  if (strict.ok()) s.strict_limit = static_cast<int>(*strict);
  auto bytes = ReadNumber(dir + "max_bytes");
  if (bytes.ok()) s.max_bytes = *bytes;
  return s;
}

Status SetBdiMaxRatio(const std::string& id, int ratio) {
  if (ratio < 1 || ratio > 100)
    return Status::InvalidArgument("--bdi-max-ratio: expected 1 to 100, got " +
                                   std::to_string(ratio));
  const std::string dir = kBdiDir + id + "/";
  // Lift the strict limit first: with it, a raised ratio is still capped.
  RETURN_IF_ERROR(WriteNumber(dir + "strict_limit", ratio > 1 ? 0 : 1));
  return WriteNumber(dir + "max_ratio", ratio);
}

}  // namespace storlab::fusefs
