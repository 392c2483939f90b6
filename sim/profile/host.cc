#include "sim/profile/host.h"

namespace storlab {

Status ParseHost(Params& p, HostSpec* h) {
  p.Size({"mem", "the host's RAM; dirty limits are fractions of it"}, &h->mem_bytes,
         uint64_t{64} << 20);
  p.Size({"used_mem", "RAM held by the kernel and applications, not dirtyable"},
         &h->used_mem_bytes);
  p.Int({"cores", "CPU cores copying data"}, &h->cores, 1, 1024);
  p.Rate({"copy_rate_per_core", "one core copying user data into the page cache"},
         &h->copy_bytes_per_s_per_core);
  p.Rate({"memory_bandwidth", "the whole machine's copy ceiling"}, &h->memory_bandwidth);
  p.Fraction({"dirty_background_ratio",
              "background writeback starts above this share of memory (vm.dirty_background_ratio)"},
             &h->dirty_background_ratio);
  // A dirty limit of 0 lets no write in: writers would wait forever.
  p.Fraction({"dirty_ratio", "writers wait above this share of memory (vm.dirty_ratio)"},
             &h->dirty_ratio, Params::Bound::kPositive);
  p.Duration(
      {"dirty_expire", "dirty data older than this is written back (dirty_expire_centisecs)"},
      &h->dirty_expire);
  p.Duration({"writeback_interval", "the flusher wakes this often (dirty_writeback_centisecs)"},
             &h->writeback_interval);
  RETURN_IF_ERROR(p.Finish());
  if (h->used_mem_bytes >= h->mem_bytes) {
    p.Fail("used_mem", "must be less than mem");
    return p.Finish();
  }
  if (h->dirty_background_ratio > h->dirty_ratio) {
    p.Fail("dirty_background_ratio", "must not exceed dirty_ratio");
    return p.Finish();
  }
  return Status();
}

Status OverrideHost(std::string_view key, std::string_view value, std::string_view flag,
                    HostSpec* out) {
  Params::Raw raw;
  const bool digits =
      !value.empty() && value.size() < 19 && value.find_first_not_of("0123456789") == value.npos;
  raw.kind = digits ? Params::Raw::Kind::kInteger : Params::Raw::Kind::kString;
  raw.text = std::string(value);
  raw.where = std::string(flag);
  Params p = Params::ForTable("host", std::string(flag), {{std::string(key), raw}});
  HostSpec h = *out;
  RETURN_IF_ERROR(ParseHost(p, &h));
  *out = h;
  return Status();
}

}  // namespace storlab
