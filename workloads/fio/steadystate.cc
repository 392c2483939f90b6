#include "workloads/fio/steadystate.h"

#include <algorithm>
#include <cstdlib>

#include "sim/quoted.h"
#include "workloads/fio/fio_units.h"

namespace storlab::fio {

Result<SteadyStateCriterion> ParseSteadyState(std::string_view v) {
  SteadyStateCriterion c;
  const size_t colon = v.find(':');
  const std::string_view kind = v.substr(0, colon);
  if (kind == "iops" || kind == "iops_slope" || kind == "bw" || kind == "bw_slope") {
    c.iops = kind.substr(0, 4) == "iops";
    c.slope = kind.ends_with("_slope");
  } else {
    return Status::InvalidArgument(Quoted(kind) + " is not one of iops, iops_slope, bw, bw_slope");
  }
  if (colon == std::string_view::npos || colon + 1 == v.size()) {
    return Status::InvalidArgument(
        "steadystate threshold must be specified in addition to "
        "criterion (e.g. iops_slope:0.01%)");
  }
  std::string limit(v.substr(colon + 1));
  c.pct = limit.back() == '%';
  if (c.pct) limit.pop_back();
  if (c.pct || c.iops) {
    char* end = nullptr;
    c.limit = std::strtod(limit.c_str(), &end);
    if (limit.empty() || *end != '\0' || c.limit < 0) {
      return Status::InvalidArgument("could not parse steadystate threshold " + Quoted(limit));
    }
  } else {
    auto bytes = ParseFioSize(limit);
    if (!bytes.ok()) {
      return Status::InvalidArgument("steadystate BW threshold " + Quoted(limit) + ": " +
                                     bytes.status().message());
    }
    c.limit = static_cast<double>(*bytes);
  }
  return c;
}

Status CheckSteadyState(std::string_view value) { return ParseSteadyState(value).status(); }

SteadyState::SteadyState(const SteadyStateCriterion& c, int dur_s)
    : c_(c),
      dur_(dur_s),
      bw_(static_cast<size_t>(dur_s)),
      iops_(static_cast<size_t>(dur_s)),
      sum_x_(static_cast<uint64_t>(dur_s) * (dur_s - 1) / 2),
      sum_x_sq_(static_cast<uint64_t>(dur_s - 1) * dur_s * (2 * dur_s - 1) / 6) {}

bool SteadyState::Add(uint64_t iops, uint64_t bw) {
  bw_[static_cast<size_t>(tail_)] = bw;
  iops_[static_cast<size_t>(tail_)] = iops;
  const std::vector<uint64_t>& y = c_.iops ? iops_ : bw_;
  const uint64_t new_val = y[static_cast<size_t>(tail_)];
  bool met = false;
  if (full_ || tail_ - head_ == dur_ - 1) {
    if (!full_) {  // first time through
      sum_y_ = sum_xy_ = 0;
      for (int i = 0; i < dur_; ++i) {
        sum_y_ += y[static_cast<size_t>(i)];
        sum_xy_ += static_cast<uint64_t>(i) * y[static_cast<size_t>((head_ + i) % dur_)];
      }
      full_ = true;
    } else {  // the sums move by one sample
      sum_y_ = sum_y_ - oldest_y_ + new_val;
      sum_xy_ = sum_xy_ - sum_y_ + static_cast<uint64_t>(dur_) * new_val;
    }
    oldest_y_ = y[static_cast<size_t>(head_)];
    const double n = dur_, mean = static_cast<double>(sum_y_) / n;
    if (c_.slope) {
      // steadystate_slope(): x equally spaced, one second apart.
      slope_ = (static_cast<double>(sum_xy_) -
                static_cast<double>(sum_x_) * static_cast<double>(sum_y_) / n) /
               (static_cast<double>(sum_x_sq_) -
                static_cast<double>(sum_x_) * static_cast<double>(sum_x_) / n);
      criterion_ = c_.pct ? 100.0 * slope_ / mean : slope_;
      met = (criterion_ < 0 ? -criterion_ : criterion_) < c_.limit;
    } else {
      // steadystate_deviation(): the largest distance from the mean.
      deviation_ = 0;
      for (uint64_t v : y) {
        const double d = static_cast<double>(v) - mean;
        deviation_ = std::max(deviation_, d < 0 ? -d : d);
      }
      criterion_ = c_.pct ? 100.0 * deviation_ / mean : deviation_;
      met = criterion_ < c_.limit;
    }
    if (met) return true;
  }
  tail_ = (tail_ + 1) % dur_;
  if (tail_ <= head_) head_ = (head_ + 1) % dur_;
  return false;
}

// stat.c show_thread_status_json(): head is the oldest sample when the
// state was attained or the ring never filled, else the one after it.
std::vector<uint64_t> SteadyState::Ordered(bool bw) const {
  const int j = attained_ || !full_ ? head_ : (head_ == 0 ? dur_ - 1 : head_ - 1);
  std::vector<uint64_t> out;
  out.reserve(static_cast<size_t>(dur_));
  for (int l = 0; l < dur_; ++l)
    out.push_back((bw ? bw_ : iops_)[static_cast<size_t>((j + l) % dur_)]);
  return out;
}

uint64_t SteadyState::bw_mean() const {
  uint64_t sum = 0;
  for (uint64_t v : bw_) sum += v;
  return sum / static_cast<uint64_t>(dur_);
}

uint64_t SteadyState::iops_mean() const {
  uint64_t sum = 0;
  for (uint64_t v : iops_) sum += v;
  return sum / static_cast<uint64_t>(dur_);
}

}  // namespace storlab::fio
