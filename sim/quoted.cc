#include "sim/quoted.h"

#include <cstdio>

namespace storlab {

std::string Printable(std::string_view text, size_t max) {
  std::string out;
  const size_t n = text.size() <= max ? text.size() : max;
  for (size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (n < text.size()) out += "...";
  return out;
}

std::string Quoted(std::string_view text, size_t max) {
  std::string out = "'" + Printable(text, max) + "'";
  if (text.size() > max) out += " (" + std::to_string(text.size()) + " bytes)";
  return out;
}

std::string QuotedList(const std::vector<std::string>& items, size_t max) {
  std::string out;
  const size_t shown = items.size() <= max ? items.size() : max;
  for (size_t i = 0; i < shown; ++i) {
    if (i) out += ", ";
    out += Quoted(items[i]);
  }
  if (shown < items.size()) out += " and " + std::to_string(items.size() - shown) + " more";
  return out;
}

}  // namespace storlab
