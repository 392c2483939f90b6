#include "workloads/fio/fio_pattern.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

#include "sim/quoted.h"

namespace storlab::fio {
namespace {

constexpr size_t kMaxPattern = 512;  // fio's MAX_PATTERN_SIZE

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsHexStart(std::string_view t, size_t i) {
  return i + 2 < t.size() && t[i] == '0' && (t[i + 1] == 'x' || t[i + 1] == 'X') &&
         HexValue(t[i + 2]) >= 0;
}

// parse_number(), hexadecimal: the digits after "0x" up to the next "0x"
// (fio reads "0xff0x14" as two numbers); an odd count starts with a half
// byte.
size_t ParseHex(std::string_view t, size_t i, std::vector<uint8_t>* out) {
  size_t j = i + 2;
  while (j < t.size() && HexValue(t[j]) >= 0) {
    if (j + 1 < t.size() && t[j] == '0' && (t[j + 1] == 'x' || t[j + 1] == 'X') && j > i + 2) break;
    ++j;
  }
  size_t n = j - (i + 2), k = i + 2;
  if (n % 2) out->push_back(static_cast<uint8_t>(HexValue(t[k++])));
  for (; k < j; k += 2)
    out->push_back(static_cast<uint8_t>(HexValue(t[k]) * 16 + HexValue(t[k + 1])));
  return j;
}

// parse_number(), decimal: strtol up to the next "0x", in int's range.
Result<size_t> ParseDecimal(std::string_view t, size_t i, std::vector<uint8_t>* out) {
  size_t limit = t.size();
  for (size_t k = i; k + 1 < t.size(); ++k) {
    if (t[k] == '0' && (t[k + 1] == 'x' || t[k + 1] == 'X')) {
      limit = k;
      break;
    }
  }
  size_t j = i;
  bool neg = false;
  if (j < limit && (t[j] == '-' || t[j] == '+')) neg = t[j++] == '-';
  int64_t v = 0;
  size_t digits = j;
  while (j < limit && t[j] >= '0' && t[j] <= '9' && v <= INT_MAX) v = v * 10 + (t[j++] - '0');
  if (j == digits) {
    return Status::InvalidArgument("not a \"string\", 0xHEX or a number at " + Quoted(t.substr(i)));
  }
  if (neg) v = -v;
  if (v > INT_MAX || v < INT_MIN) {
    return Status::InvalidArgument(Quoted(t.substr(i, j - i)) + " is outside an int's range");
  }
  if (v == 0) {
    out->push_back(0);
  } else {
    for (auto u = static_cast<uint32_t>(v); u; u >>= 8) out->push_back(static_cast<uint8_t>(u));
  }
  return j;
}

}  // namespace

Result<std::vector<uint8_t>> ParseFioPattern(std::string_view t) {
  std::vector<uint8_t> out;
  if (t.empty()) return Status::InvalidArgument("empty");
  size_t i = 0;
  while (i < t.size()) {
    if (t[i] == '"') {  // parse_string()
      size_t end = t.find('"', i + 1);
      if (end == std::string_view::npos) return Status::InvalidArgument("a '\"' is not closed");
      out.insert(out.end(), t.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                 t.begin() + static_cast<std::ptrdiff_t>(end));
      if (end == i + 1) return Status::InvalidArgument("an empty \"\" string");
      i = end + 1;
    } else if (t[i] == '\'') {
      return Status::InvalidArgument(
          "a pattern read from a host file ('NAME') is not modelled by storlab sim");
    } else if (t[i] == '%') {
      return Status::InvalidArgument("fio's %o formats are not modelled by storlab sim");
    } else if (IsHexStart(t, i)) {
      i = ParseHex(t, i, &out);
    } else {
      ASSIGN_OR_RETURN(i, ParseDecimal(t, i, &out));
    }
    if (out.size() > kMaxPattern)
      return Status::InvalidArgument("longer than fio's 512 bytes (MAX_PATTERN_SIZE)");
  }
  return out;
}

void FillPattern(const std::vector<uint8_t>& pattern, uint8_t* buf, uint64_t len) {
  if (pattern.empty()) return;
  for (uint64_t done = 0; done < len;) {
    const uint64_t n = std::min<uint64_t>(pattern.size(), len - done);
    std::memcpy(buf + done, pattern.data(), n);
    done += n;
  }
}

}  // namespace storlab::fio
