#include "sim/state_dir.h"

#include <xxhash.h>

#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

#include "sim/random.h"

#ifndef STORLAB_VERSION
#define STORLAB_VERSION "unknown"
#endif

namespace storlab {
namespace {

constexpr char kStateDirMagic[] = "storlab-state";
constexpr uint64_t kMaxManifest = uint64_t{64} << 20;

template <typename T>
Result<T> Ctx(Result<T> r, const std::string& context) {
  if (!r.ok()) return r.status().WithContext(context);
  return r;
}

std::string HexName(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

// A name as one manifest word or file name: [A-Za-z0-9._-] as is, any
// other byte as %XX.
std::string Escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '.' || c == '_' || c == '-') {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out.empty() ? "%" : out;  // "%" alone: the empty string
}

std::optional<std::string> Unescape(const std::string& s) {
  if (s == "%") return std::string();
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out.push_back(s[i]);
      continue;
    }
    unsigned v;
    if (i + 2 >= s.size() + 0 || std::sscanf(s.substr(i + 1, 2).c_str(), "%2x", &v) != 1) {
      return std::nullopt;
    }
    out.push_back(static_cast<char>(v));
    i += 2;
  }
  return out;
}

std::string Parent(const std::string& dir) {
  const size_t slash = dir.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : dir.substr(0, slash);
}

std::string Trimmed(std::string dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

Result<bool> Exists(Env& env, const std::string& path) {
  ASSIGN_OR_RETURN(Env::FileInfo info, env.Stat(path));
  return info.exists;
}

// Removes a directory of plain files (a state's, or its .tmp / .old).
Status RemoveFlat(Env& env, const std::string& dir) {
  ASSIGN_OR_RETURN(auto names, env.ListDir(dir));
  for (const auto& n : names) {
    RETURN_IF_ERROR(env.RemoveFile(dir + "/" + n).WithContext("removing " + dir + "/" + n));
  }
  return env.RemoveDir(dir).WithContext("removing " + dir);
}

Status WriteSynced(Env& env, const std::string& path, const std::string& data) {
  ASSIGN_OR_RETURN(auto f, Ctx(env.OpenReadWrite(path), "creating " + path));
  RETURN_IF_ERROR(f->Truncate(0).WithContext("truncating " + path));
  RETURN_IF_ERROR(WriteWholeFile(*f, data).WithContext("writing " + path));
  return f->Sync().WithContext("fsync of " + path);
}

std::string Manifest(const StateImage& image) {
  std::string m = std::string(kStateDirMagic) + "\n";
  m += "format " + std::to_string(StateImage::kFormat) + "\n";
  m += std::string("storlab ") + STORLAB_VERSION + "\n";
  m += "clock " + std::to_string(image.clock.count()) + "\n";
  m += std::string("data ") + (image.keeps_data ? "kept" : "timing-only") + "\n";
  m += "stack " + HexName(Random::Fnv1a(image.stack)) + "\n";
  for (const auto& p : image.parts) {
    m += "part " + p.kind + " " + Escape(p.name) + " " + Escape(p.type) + " " + StatePartFile(p) +
         " " + std::to_string(p.bytes.size()) + " " +
         HexName(XXH3_64bits(p.bytes.data(), p.bytes.size())) + "\n";
  }
  std::istringstream in(image.stack);
  for (std::string line; std::getline(in, line);) m += "desc " + line + "\n";
  return m;
}

// One manifest line's words after its key.
std::vector<std::string> Words(const std::string& rest) {
  std::vector<std::string> w;
  std::istringstream in(rest);
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

}  // namespace

std::string StatePartFile(const StateImage::Part& part) {
  return part.kind == "node" ? "node-" + Escape(part.name) + ".state" : part.kind + ".state";
}

Status SaveStateDir(const std::string& dir_in, const StateImage& image, Env* env_in) {
  Env& env = env_in ? *env_in : *Env::Default();
  const std::string dir = Trimmed(dir_in);
  const std::string tmp = dir + ".tmp", old = dir + ".old";
  auto fail = [&](const Status& st) {
    (void)RemoveFlat(env, tmp);  // best effort: the previous state is untouched
    return st.WithContext("saving state " + dir);
  };
  ASSIGN_OR_RETURN(bool tmp_exists, Ctx(Exists(env, tmp), "saving state " + dir));
  if (tmp_exists) {  // left by an interrupted save
    RETURN_IF_ERROR(RemoveFlat(env, tmp).WithContext("saving state " + dir));
  }
  RETURN_IF_ERROR(env.CreateDir(tmp).WithContext("saving state " + dir + ": creating " + tmp));
  std::set<std::string> files;
  for (const auto& p : image.parts) {
    const std::string file = StatePartFile(p);
    if (!files.insert(file).second) return fail(Status::Internal("two parts in " + file));
    Status st = WriteSynced(env, tmp + "/" + file, p.bytes);
    if (!st.ok()) return fail(st);
  }
  Status st = WriteSynced(env, tmp + "/MANIFEST", Manifest(image));
  if (st.ok()) st = env.SyncDir(tmp).WithContext("fsync of " + tmp);
  if (!st.ok()) return fail(st);
  // Swap: DIR -> DIR.old, DIR.tmp -> DIR.
  auto swap = [&]() -> Status {
    ASSIGN_OR_RETURN(bool dir_exists, Exists(env, dir));
    ASSIGN_OR_RETURN(bool old_exists, Exists(env, old));
    if (dir_exists) {
      if (old_exists) RETURN_IF_ERROR(RemoveFlat(env, old));
      RETURN_IF_ERROR(env.Rename(dir, old).WithContext("renaming " + dir + " to " + old));
      old_exists = true;
    }
    RETURN_IF_ERROR(env.Rename(tmp, dir).WithContext("renaming " + tmp + " to " + dir));
    RETURN_IF_ERROR(env.SyncDir(Parent(dir)).WithContext("fsync of " + Parent(dir)));
    if (old_exists) RETURN_IF_ERROR(RemoveFlat(env, old));
    return Status();
  };
  st = swap();
  if (!st.ok()) return fail(st);
  return Status();
}

Result<std::optional<StateImage>> LoadStateDir(const std::string& dir_in, Env* env_in) {
  Env& env = env_in ? *env_in : *Env::Default();
  std::string dir = Trimmed(dir_in);
  const std::string where = "state " + dir;
  ASSIGN_OR_RETURN(Env::FileInfo info, Ctx(env.Stat(dir), where));
  if (!info.exists) {
    // Between a save's two renames the last state is in DIR.old.
    ASSIGN_OR_RETURN(Env::FileInfo old, Ctx(env.Stat(dir + ".old"), where));
    ASSIGN_OR_RETURN(Env::FileInfo om, Ctx(env.Stat(dir + ".old/MANIFEST"), where));
    if (!old.directory || !om.exists) return std::optional<StateImage>();
    dir += ".old";
  } else if (!info.directory) {
    return Status::InvalidArgument(where + ": not a directory");
  }
  ASSIGN_OR_RETURN(auto names, Ctx(env.ListDir(dir), where));
  if (names.empty()) return std::optional<StateImage>();
  const std::string mpath = dir + "/MANIFEST";
  auto mf = env.OpenReadOnly(mpath);
  if (!mf.ok()) {
    return Status::InvalidArgument(where + ": not a storlab state (no readable MANIFEST: " +
                                   mf.status().message() + "); give an empty or new directory");
  }
  ASSIGN_OR_RETURN(std::string text, Ctx(ReadWholeFile(**mf, kMaxManifest), "reading " + mpath));
  StateImage image;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  auto bad = [&](const std::string& why) {
    return Status::InvalidArgument(mpath + " line " + std::to_string(n) + ": " + why);
  };
  bool format_seen = false, clock_seen = false, data_seen = false;
  std::string stack_hash;
  while (std::getline(in, line)) {
    ++n;
    if (n == 1) {
      if (line != kStateDirMagic)
        return bad("not a storlab state (the first line is not " + std::string(kStateDirMagic) +
                   ")");
      continue;
    }
    const size_t sp = line.find(' ');
    const std::string key = line.substr(0, sp);
    const std::string rest = sp == std::string::npos ? "" : line.substr(sp + 1);
    if (key == "format") {
      if (rest != std::to_string(StateImage::kFormat)) {
        return Status::InvalidArgument(where + ": format " + rest + ", this storlab (" +
                                       STORLAB_VERSION + ") reads format " +
                                       std::to_string(StateImage::kFormat));
      }
      format_seen = true;
    } else if (!format_seen) {
      return bad("`format` must come second");
    } else if (key == "storlab") {
      // informational
    } else if (key == "clock") {
      char* end = nullptr;
      const long long v = std::strtoll(rest.c_str(), &end, 10);
      if (rest.empty() || *end || v < 0) return bad("clock: not a time in ns: " + rest);
      image.clock = Nanos(v);
      clock_seen = true;
    } else if (key == "data") {
      if (rest != "kept" && rest != "timing-only") return bad("data: kept or timing-only");
      image.keeps_data = rest == "kept";
      data_seen = true;
    } else if (key == "stack") {
      stack_hash = rest;
    } else if (key == "part") {
      const auto w = Words(rest);
      if (w.size() != 6) return bad("part: KIND NAME TYPE FILE BYTES CHECKSUM");
      StateImage::Part p;
      p.kind = w[0];
      auto name = Unescape(w[1]), type = Unescape(w[2]);
      if ((p.kind != "node" && p.kind != "fs") || !name || !type) return bad("part: bad name");
      p.name = *name;
      p.type = *type;
      if (StatePartFile(p) != w[3]) return bad("part: file " + w[3] + " does not match its name");
      char* end = nullptr;
      const unsigned long long bytes = std::strtoull(w[4].c_str(), &end, 10);
      if (*end) return bad("part: bytes: " + w[4]);
      const std::string path = dir + "/" + w[3];
      ASSIGN_OR_RETURN(Env::FileInfo fi, Ctx(env.Stat(path), where));
      if (!fi.regular) return Status::InvalidArgument(where + ": " + w[3] + " is missing");
      if (fi.size != bytes) {
        return Status::InvalidArgument(where + ": " + w[3] + " has " + std::to_string(fi.size) +
                                       " bytes, the MANIFEST says " + w[4] + " (truncated?)");
      }
      ASSIGN_OR_RETURN(auto f, Ctx(env.OpenReadOnly(path), "opening " + path));
      ASSIGN_OR_RETURN(p.bytes, Ctx(ReadWholeFile(*f, bytes), "reading " + path));
      if (HexName(XXH3_64bits(p.bytes.data(), p.bytes.size())) != w[5]) {
        return Status::InvalidArgument(where + ": " + w[3] +
                                       " does not match its checksum in the MANIFEST (corrupt)");
      }
      image.parts.push_back(std::move(p));
    } else if (key == "desc") {
      image.stack += rest + "\n";
    } else {
      return bad("unknown key " + key);
    }
  }
  if (n == 0) return Status::InvalidArgument(mpath + ": empty");
  if (!format_seen || !clock_seen || !data_seen || stack_hash.empty()) {
    return Status::InvalidArgument(mpath + ": incomplete (format, clock, data and stack needed)");
  }
  if (HexName(Random::Fnv1a(image.stack)) != stack_hash) {
    return Status::InvalidArgument(mpath + ": the stack description does not match its hash");
  }
  return std::optional<StateImage>(std::move(image));
}

Status CompareStateStack(const std::string& dir, const std::string& saved,
                         const std::string& current) {
  if (saved == current) return Status();
  std::istringstream a(saved), b(current);
  std::string x, y;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, x));
    const bool more_b = static_cast<bool>(std::getline(b, y));
    if (!more_a) x = "(nothing)";
    if (!more_b) y = "(nothing)";
    if (x != y || !more_a || !more_b) {
      return Status::InvalidArgument(
          "state " + Trimmed(dir) + " was saved from a different stack: line " +
          std::to_string(line) + " of its description is `" + x + "`, this run's is `" + y + "`");
    }
  }
}

}  // namespace storlab
