#include "sim/state_coding.h"

#include <cstring>

namespace storlab {

void StateWriter::U64(uint64_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<char>(v));
}

void StateWriter::Double(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>(bits >> (8 * i)));
}

void StateWriter::Bytes(std::string_view s) {
  U64(s.size());
  out_.append(s);
}

void StateReader::Fail(std::string_view why) {
  if (!status_.ok()) return;
  status_ = Status::InvalidArgument("state " + where_ + " at offset " + std::to_string(pos_) +
                                    ": " + std::string(why));
}

uint64_t StateReader::U64() {
  uint64_t v = 0;
  for (int shift = 0; ok(); shift += 7) {
    if (pos_ >= data_.size()) {
      Fail("truncated");
      break;
    }
    if (shift > 63) {
      Fail("a number longer than 64 bits");
      break;
    }
    const auto b = static_cast<uint8_t>(data_[pos_++]);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  return 0;
}

bool StateReader::Bool() {
  const uint64_t v = U64();
  if (v > 1) Fail("a flag that is neither 0 nor 1");
  return ok() && v == 1;
}

double StateReader::Double() {
  uint64_t bits = 0;
  uint8_t b[8];
  Raw(b, sizeof b);
  for (int i = 0; i < 8; ++i) bits |= static_cast<uint64_t>(b[i]) << (8 * i);
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

std::string StateReader::Bytes() {
  const uint64_t n = Count(1);
  std::string s(n, '\0');
  Raw(s.data(), n);
  return s;
}

void StateReader::Raw(void* out, size_t n) {
  if (ok() && data_.size() - pos_ < n) Fail("truncated");
  if (!ok()) {
    std::memset(out, 0, n);
    return;
  }
  std::memcpy(out, data_.data() + pos_, n);
  pos_ += n;
}

uint64_t StateReader::Count(uint64_t min_item_bytes) {
  const uint64_t n = U64();
  const uint64_t left = data_.size() - pos_;
  if (ok() && min_item_bytes && n > left / min_item_bytes) {
    Fail("a count of " + std::to_string(n) + " that the " + std::to_string(left) +
         " bytes left cannot hold (truncated or corrupt)");
  }
  return ok() ? n : 0;
}

uint64_t StateReader::Below(uint64_t limit, std::string_view what) {
  const uint64_t v = U64();
  if (ok() && v >= limit) {
    Fail(std::string(what) + " " + std::to_string(v) + " out of range (below " +
         std::to_string(limit) + ")");
  }
  return ok() ? v : 0;
}

Status StateReader::Finish() {
  if (ok() && pos_ != data_.size()) {
    Fail(std::to_string(data_.size() - pos_) + " bytes left over (corrupt, or another version)");
  }
  return status_;
}

}  // namespace storlab
