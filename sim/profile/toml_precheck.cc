#include "sim/profile/toml_precheck.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <vector>

#include "sim/quoted.h"

namespace storlab::stack_file {
namespace {

// The offset of the first byte that is not part of a valid UTF-8 sequence
// (overlong forms, surrogates and code points past U+10FFFF are invalid), or
// npos.
size_t InvalidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    int n;
    unsigned lo = 0x80, hi = 0xBF;  // the valid range of the second byte
    if (c < 0x80) {
      n = 0;
    } else if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      if (c == 0xE0) lo = 0xA0;  // overlong
      if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      if (c == 0xF0) lo = 0x90;  // overlong
      if (c == 0xF4) hi = 0x8F;  // past U+10FFFF
    } else {
      return i;
    }
    if (s.size() - i <= static_cast<size_t>(n)) return i;
    for (int k = 1; k <= n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return i;
    }
    i += static_cast<size_t>(n) + 1;
  }
  return std::string_view::npos;
}

bool BareKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// One pass over the text. Levels: a scope (array, inline table, table
// header) starts at `base`; a key of N dotted parts reaches base + N, and
// its value's array or inline table starts there.
class Scanner {
 public:
  Scanner(std::string_view text, const std::string& label) : s_(text), label_(label) {}

  Status Run() {
    StartLine();
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\n') {
        ++line_;
        ++i_;
        if (scopes_.empty()) StartLine();
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r') {
        ++i_;
        continue;
      }
      if (c == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
        continue;
      }
      if (c == '"' || c == '\'') {
        std::string text;
        RETURN_IF_ERROR(SkipString(&text));
        if (in_key_) RETURN_IF_ERROR(KeyPart(text));
        continue;
      }
      if (in_key_ && BareKeyChar(c)) {
        size_t b = i_;
        while (i_ < s_.size() && BareKeyChar(s_[i_])) ++i_;
        RETURN_IF_ERROR(KeyPart(std::string(s_.substr(b, i_ - b))));
        continue;
      }
      if (in_key_ && c == '.') {
        ++i_;
        continue;
      }
      ++i_;
      switch (c) {
        case '=':
          RETURN_IF_ERROR(Assign());
          break;
        case '[':
          if (scopes_.empty() && in_key_ && key_.empty()) {
            RETURN_IF_ERROR(Open(Scope::kHeader, 0));
          } else {
            RETURN_IF_ERROR(Open(Scope::kArray, value_level_));
          }
          break;
        case '{':
          RETURN_IF_ERROR(Open(Scope::kInline, value_level_));
          break;
        case ']':
        case '}':
          RETURN_IF_ERROR(Close());
          break;
        case ',':
          RETURN_IF_ERROR(Comma());
          break;
        default:
          break;  // a value's characters: numbers, dates, booleans
      }
    }
    return Status();
  }

 private:
  struct Scope {
    enum Kind { kArray, kInline, kHeader } kind;
    int base;         // the level its contents start at
    int saved_value;  // the enclosing scope's value level
    size_t items = 1;
  };

  Status Error(const std::string& what) const {
    return Status::InvalidArgument(label_ + ":" + std::to_string(line_) + ": " + what);
  }
  int Base() const { return scopes_.empty() ? table_base_ : scopes_.back().base; }

  // A new line at the top level: a key, a table header, or nothing.
  void StartLine() {
    in_key_ = true;
    key_.clear();
    value_level_ = table_base_;
  }

  Status KeyPart(std::string part) {
    key_.push_back(std::move(part));
    if (Base() + static_cast<int>(key_.size()) > kMaxTomlDepth) return TooDeep();
    return Status();
  }

  Status TooDeep() const {
    return Error("nested more than " + std::to_string(kMaxTomlDepth) +
                 " levels deep (table-header and dotted-key parts, arrays, inline tables); "
                 "a stack file needs a few");
  }

  Status Assign() {
    if (!in_key_) return Status();  // malformed: toml11 will say where
    value_level_ = Base() + static_cast<int>(key_.size());
    if (scopes_.empty()) {
      // node.NAME... = value, or NAME... = value in a [node] table.
      std::vector<std::string> path = table_path_;
      path.insert(path.end(), key_.begin(), key_.end());
      RETURN_IF_ERROR(NodeNamed(path));
    }
    in_key_ = false;
    key_.clear();
    return Status();
  }

  Status Open(Scope::Kind kind, int base) {
    if (kind == Scope::kArray && !scopes_.empty() && scopes_.back().kind == Scope::kArray) {
      base = scopes_.back().base + 1;
    } else if (kind == Scope::kHeader) {
      base = 0;
      if (i_ < s_.size() && s_[i_] == '[') ++i_;  // [[array.of.tables]]
      table_path_.clear();
      table_base_ = 0;
    }
    if (base + 1 > kMaxTomlDepth) return TooDeep();
    scopes_.push_back({kind, kind == Scope::kArray ? base + 1 : base, value_level_});
    in_key_ = kind != Scope::kArray;
    key_.clear();
    value_level_ = scopes_.back().base;
    return Status();
  }

  Status Close() {
    if (scopes_.empty()) return Status();  // malformed: toml11 will say where
    Scope sc = scopes_.back();
    scopes_.pop_back();
    if (sc.kind == Scope::kHeader) {
      if (i_ < s_.size() && s_[i_] == ']') ++i_;
      table_path_ = key_;
      table_base_ = static_cast<int>(key_.size());
      RETURN_IF_ERROR(NodeNamed(table_path_));
    }
    in_key_ = false;
    key_.clear();
    value_level_ = sc.saved_value;
    return Status();
  }

  Status Comma() {
    if (scopes_.empty()) return Status();
    Scope& sc = scopes_.back();
    if (++sc.items > kMaxTomlItems) {
      return Error("more than " + std::to_string(kMaxTomlItems) +
                   " items in one array or inline table");
    }
    if (sc.kind == Scope::kInline) {
      in_key_ = true;
      key_.clear();
    }
    value_level_ = sc.base;
    return Status();
  }

  // `path` (node, NAME, ...) names a node: count it.
  Status NodeNamed(const std::vector<std::string>& path) {
    if (path.size() < 2 || path[0] != "node") return Status();
    if (nodes_.insert(path[1]).second && nodes_.size() > static_cast<size_t>(kMaxNodes)) {
      return Error("node " + Quoted(path[1]) + " is one more than the " +
                   std::to_string(kMaxNodes) + " nodes a stack can have");
    }
    return Status();
  }

  // Skips a string starting at s_[i_]; its raw text (escapes unresolved)
  // goes to *text.
  Status SkipString(std::string* text) {
    const char q = s_[i_];
    const bool multi = s_.substr(i_, 3) == std::string(3, q);
    const size_t open = multi ? 3 : 1;
    const int start_line = line_;
    size_t j = i_ + open;
    for (;;) {
      if (j >= s_.size() || (!multi && s_[j] == '\n')) {
        line_ = start_line;
        i_ = s_.size();
        return Status();  // unterminated: toml11 will say where
      }
      const char c = s_[j];
      if (c == '\\' && q == '"') {
        if (j + 1 < s_.size() && s_[j + 1] == '\n') ++line_;
        j += 2;
        continue;
      }
      if (c == '\n') ++line_;
      if (c == q && (!multi || s_.substr(j, 3) == std::string(3, q))) break;
      ++j;
    }
    *text = std::string(s_.substr(i_ + open, j - i_ - open));
    i_ = j + open;
    while (multi && i_ < s_.size() && s_[i_] == q) ++i_;  // """a"""" ends in quotes
    return Status();
  }

  std::string_view s_;
  const std::string& label_;
  size_t i_ = 0;
  int line_ = 1;
  std::vector<Scope> scopes_;
  std::vector<std::string> table_path_;  // of the last [table] header
  int table_base_ = 0;
  bool in_key_ = true;
  std::vector<std::string> key_;  // the parts of the key being read
  int value_level_ = 0;
  std::set<std::string> nodes_;
};

}  // namespace

Status PrecheckToml(std::string_view text, const std::string& label) {
  if (size_t bad = InvalidUtf8(text); bad != std::string_view::npos) {
    size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + bad, '\n'));
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[bad]));
    return Status::InvalidArgument(label + ":" + std::to_string(line) + ": not valid UTF-8 (byte " +
                                   byte + "); a TOML file must be UTF-8");
  }
  return Scanner(text, label).Run();
}

}  // namespace storlab::stack_file
