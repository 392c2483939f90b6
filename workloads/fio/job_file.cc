#include "workloads/fio/job_file.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/quoted.h"
#include "workloads/fio/options.h"

namespace storlab::fio {
namespace {

constexpr int kMaxIncludeDepth = 16;
// The largest job file read (fio's are a few hundred bytes).
constexpr uint64_t kMaxJobFileBytes = uint64_t{16} << 20;
// Paths in messages: long enough for any real one, short enough for a
// hostile one.
constexpr size_t kMaxPathShown = 256;

std::string TrimLine(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

// Drops a `;` or `#` comment: the whole line, or from a comment character
// that follows white space.
std::string StripComment(const std::string& line) {
  for (size_t i = 0; i < line.size(); ++i) {
    if ((line[i] == ';' || line[i] == '#') &&
        (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
      return line.substr(0, i);
    }
  }
  return line;
}

Result<std::string> ExpandEnv(const std::string& s, const std::string& where,
                              const EnvLookup& env) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '$' && i + 1 < s.size() && s[i + 1] == '{') {
      size_t close = s.find('}', i + 2);
      if (close == std::string::npos) {
        return Status::InvalidArgument(where + ": unterminated '${' in " + Quoted(s));
      }
      std::string var = s.substr(i + 2, close - i - 2);
      auto v = env(var);
      if (!v) {
        return Status::InvalidArgument(where + ": environment variable " + Quoted(var) +
                                       " is not set");
      }
      out += *v;
      i = close;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string DirOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

Result<std::string> ReadFile(const std::string& path) {
  // Only regular files: `include /dev/zero` would read forever.
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    return Status::InvalidArgument("job file " + Quoted(path, kMaxPathShown) +
                                   " is not a regular file");
  }
  if (std::filesystem::is_regular_file(path, ec) &&
      std::filesystem::file_size(path, ec) > kMaxJobFileBytes) {
    return Status::InvalidArgument("job file " + Quoted(path, kMaxPathShown) + " is larger than " +
                                   std::to_string(kMaxJobFileBytes >> 20) + " MiB: not a job file");
  }
  std::ifstream in(path);
  if (!in) return Status::NotFound("cannot open job file " + Quoted(path, kMaxPathShown));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Parser {
  const EnvLookup& env;
  std::vector<RawSection> sections;

  Status Parse(std::string_view text, const std::string& label, const std::string& dir, int depth) {
    std::istringstream in{std::string(text)};
    std::string raw;
    int lineno = 0;
    bool first = true;  // the file's first line that is not a comment
    while (std::getline(in, raw)) {
      ++lineno;
      std::string where = label + ":" + std::to_string(lineno);
      std::string line = TrimLine(StripComment(raw));
      if (line.empty()) continue;
      const bool first_line = first;
      first = false;
      if (line[0] == '[') {
        if (line.back() != ']' || line.size() < 3) {
          return Status::InvalidArgument(where + ": bad section header " + Quoted(line));
        }
        sections.push_back({TrimLine(line.substr(1, line.size() - 2)), where, {}});
        continue;
      }
      if (line.rfind("include", 0) == 0 && line.size() > 7 && (line[7] == ' ' || line[7] == '\t')) {
        if (depth >= kMaxIncludeDepth) {
          return Status::InvalidArgument(where + ": includes nested too deeply (a loop?)");
        }
        ASSIGN_OR_RETURN(std::string file, ExpandEnv(TrimLine(line.substr(8)), where, env));
        std::string path = file[0] == '/' ? file : dir + "/" + file;
        auto text2 = ReadFile(path);
        if (!text2.ok()) return text2.status().WithContext(where);
        // The label goes into messages: the path comes from the file.
        Status st = Parse(*text2, Printable(path, kMaxPathShown), DirOf(path), depth + 1);
        if (!st.ok()) return st.WithContext(where + ": in the include");
        continue;
      }
      RawEntry e;
      e.where = where;
      size_t eq = line.find('=');
      e.key = TrimLine(eq == std::string::npos ? line : line.substr(0, eq));
      // Not fio's format at all (an `include /etc/shadow`): an option before
      // any [section], or a first line that is no option. Quote nothing.
      const bool option_like =
          !e.key.empty() && e.key.find_first_not_of(
                                "abcdefghijklmnopqrstuvwxyz"
                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == std::string::npos;
      if (sections.empty() || (first_line && !option_like)) {
        return Status::InvalidArgument(where +
                                       ": not a job file (the first line that is not a comment "
                                       "is neither a [section], an include nor an option)");
      }
      if (e.key.empty()) return Status::InvalidArgument(where + ": missing option name");
      if (!option_like) {
        return Status::InvalidArgument(where + ": " + Quoted(e.key) +
                                       " is not an option name (letters, digits, '_', '-')");
      }
      if (eq != std::string::npos) {
        ASSIGN_OR_RETURN(e.value, ExpandEnv(TrimLine(line.substr(eq + 1)), where, env));
        e.has_value = true;
      }
      sections.back().entries.push_back(std::move(e));
    }
    return Status();
  }
};

}  // namespace

EnvLookup ProcessEnv() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (!v) return std::nullopt;
    return std::string(v);
  };
}

Result<std::vector<RawSection>> ParseJobText(std::string_view text, std::string_view label,
                                             std::string_view dir, const EnvLookup& env) {
  Parser p{env, {}};
  RETURN_IF_ERROR(p.Parse(text, std::string(label), std::string(dir), 0));
  return std::move(p.sections);
}

Result<std::vector<RawSection>> ParseJobFile(const std::string& path, const EnvLookup& env) {
  ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  return ParseJobText(text, path, DirOf(path), env);
}

Result<std::vector<RawSection>> ParseCommandLine(const std::vector<std::string>& args) {
  std::vector<RawSection> out;
  out.push_back({"global", "command line", {}});
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0 || a.size() == 2) {
      return Status::InvalidArgument("command line: " + Quoted(a) + " is not an --option");
    }
    RawEntry e;
    size_t eq = a.find('=');
    e.key = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    e.where = "command line (--" + Printable(e.key) + ")";
    if (eq != std::string::npos) {
      e.value = a.substr(eq + 1);
      e.has_value = true;
    } else {
      const OptionDef* d = FindOption(e.key);
      bool flag = d && TakesNoNextWord(*d);
      if (!flag && i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) {
        e.value = args[++i];
        e.has_value = true;
      }
    }
    if (e.key == "name") {
      if (!e.has_value || e.value.empty()) {
        return Status::InvalidArgument("command line: --name requires a value");
      }
      out.push_back({e.value, "command line (--name=" + Printable(e.value) + ")", {}});
    }
    out.back().entries.push_back(std::move(e));
  }
  return out;
}

}  // namespace storlab::fio
