#include "sim/profile/toml_read.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

#include "sim/profile/toml_precheck.h"
#include "sim/quoted.h"

namespace storlab::stack_file {
namespace {

// The line of `text` numbered `line` (1-based), or "".
std::string_view LineOf(std::string_view text, size_t line) {
  size_t start = 0;
  for (size_t n = 1; n < line; ++n) {
    start = text.find('\n', start);
    if (start == std::string_view::npos) return {};
    ++start;
  }
  size_t end = text.find('\n', start);
  return text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

// The number of the first line that is neither blank nor a comment.
size_t FirstContentLine(std::string_view text) {
  size_t line = 1, start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string_view l = text.substr(start, end == std::string_view::npos ? end : end - start);
    size_t b = l.find_first_not_of(" \t\r");
    if (b != std::string_view::npos && l[b] != '#') return line;
    if (end == std::string_view::npos) break;
    start = end + 1;
    ++line;
  }
  return line;
}

// toml11's message: "[error] toml::parse_x: REASON\n --> file\n   |\n 3 | the
// line\n   |   ^--- HINT\n...". Its reason, and the last line quoted with its hint.
struct TomlError {
  std::string reason, hint;
  size_t line = 0;
};

TomlError SplitTomlError(const std::string& what) {
  TomlError e;
  std::istringstream in(what);
  std::string l;
  bool first = true;
  while (std::getline(in, l)) {
    if (first) {
      first = false;
      size_t p = l.find("toml::");
      if (p != std::string::npos) p = l.find(": ", p);
      e.reason = p == std::string::npos ? l : l.substr(p + 2);
      continue;
    }
    size_t b = l.find_first_not_of(' ');
    if (b == std::string::npos) continue;
    size_t bar = l.find(" | ", b);
    if (std::isdigit(static_cast<unsigned char>(l[b])) && bar != std::string::npos) {
      e.line = std::strtoul(l.c_str() + b, nullptr, 10);
      e.hint.clear();  // the hint under this line, not an earlier one
    } else if (l[b] == '|' && e.hint.empty()) {
      size_t dash = l.find("--- ");
      if (dash != std::string::npos) e.hint = l.substr(dash + 4);
    }
  }
  return e;
}

}  // namespace

Result<TomlValue> ParseToml(std::string_view text, const std::string& label) {
  Status pre = PrecheckToml(text, label);
  if (!pre.ok()) return pre;
  try {
    std::istringstream in{std::string(text)};
    return toml::parse<toml::discard_comments, std::map, std::vector>(in, label);
  } catch (const std::exception& ex) {
    TomlError e = SplitTomlError(ex.what());
    const size_t first = FirstContentLine(text);
    if (e.line == 0) e.line = first;
    const std::string at = label + ":" + std::to_string(e.line) + ": ";
    if (e.line <= first) {
      // Not TOML from its first line on: say so, and quote nothing of it.
      return Status::InvalidArgument(at + "not a TOML stack file (line " + std::to_string(e.line) +
                                     " is not TOML)");
    }
    std::string msg = at + "malformed TOML: " + Printable(e.reason, 80);
    if (!e.hint.empty()) msg += " (" + Printable(e.hint, 40) + ")";
    return Status::InvalidArgument(msg + " in " + Quoted(LineOf(text, e.line)));
  }
}

Locator::Locator(std::string label, std::string_view text) : label_(std::move(label)) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') newlines_.push_back(i);
  }
}

std::string Locator::operator()(const TomlValue& v) const {
  // toml11 3.7 keeps each value's place as a detail::region over its copy
  // of the text (same offsets); values made by the program have none.
  const auto* r = dynamic_cast<const toml::detail::region*>(toml::detail::get_region(v));
  if (!r || !r->is_ok()) return label_;
  const auto offset = static_cast<size_t>(r->first() - r->begin());
  const auto line =
      std::lower_bound(newlines_.begin(), newlines_.end(), offset) - newlines_.begin() + 1;
  return label_ + ":" + std::to_string(line);
}

}  // namespace storlab::stack_file
