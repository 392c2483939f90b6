#include "sim/devices/hdd_layout.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace storlab {

Result<ZonedLayout> ZonedLayout::Make(const Config& c) {
  if (c.capacity == 0 || c.capacity % kSector != 0) {
    return Status::InvalidArgument("capacity must be a positive multiple of 512 bytes");
  }
  if (c.heads == 0 || c.zones == 0 || c.rpm == 0) {
    return Status::InvalidArgument("heads, zones and rpm must be positive");
  }
  if (!(c.inner_fraction > 0 && c.inner_fraction <= 1)) {
    return Status::InvalidArgument("the inner zone's rate must be a fraction (0, 1] of the outer");
  }
  ZonedLayout l;
  l.heads_ = c.heads;
  l.rev_ns_ = 60e9 / c.rpm;
  const double outer_spt = c.outer_rate * (l.rev_ns_ * 1e-9) / kSector;
  if (outer_spt * c.inner_fraction < 1) {
    return Status::InvalidArgument("the media rate is too low for a single sector per track");
  }
  std::vector<uint32_t> spt(c.zones);
  uint64_t per_cylinder_set = 0;  // sectors in one cylinder of every zone
  for (uint32_t z = 0; z < c.zones; ++z) {
    const double f = c.zones == 1 ? 0.0 : static_cast<double>(z) / (c.zones - 1);
    spt[z] = static_cast<uint32_t>(std::llround(outer_spt * (1 - (1 - c.inner_fraction) * f)));
    per_cylinder_set += uint64_t{spt[z]} * c.heads;
  }
  const uint64_t total = c.capacity / kSector;
  const uint64_t cyl_per_zone = (total + per_cylinder_set - 1) / per_cylinder_set;
  uint64_t lba = 0, cyl = 0;
  for (uint32_t z = 0; z < c.zones && lba < total; ++z) {
    Zone zone;
    zone.first_lba = lba;
    zone.first_cylinder = cyl;
    zone.sectors_per_track = spt[z];
    const uint64_t per_cyl = uint64_t{spt[z]} * c.heads;
    zone.sectors = std::min(cyl_per_zone * per_cyl, total - lba);
    zone.cylinders = (zone.sectors + per_cyl - 1) / per_cyl;
    lba += zone.sectors;
    cyl += zone.cylinders;
    l.zones_.push_back(zone);
  }
  l.sectors_ = total;
  l.cylinders_ = cyl;
  return l;
}

const ZonedLayout::Zone& ZonedLayout::ZoneOf(uint64_t lba) const {
  auto it = std::upper_bound(zones_.begin(), zones_.end(), lba,
                             [](uint64_t v, const Zone& z) { return v < z.first_lba; });
  return *(it - 1);
}

ZonedLayout::Position ZonedLayout::Locate(uint64_t lba) const {
  const Zone& z = ZoneOf(lba);
  const uint64_t k = lba - z.first_lba;
  const uint64_t track = k / z.sectors_per_track;
  return {z.first_cylinder + track / heads_,
          static_cast<double>(k % z.sectors_per_track) / z.sectors_per_track};
}

double ZonedLayout::RateAt(uint64_t lba) const {
  return ZoneOf(lba).sectors_per_track * static_cast<double>(kSector) * 1e9 / rev_ns_;
}

Nanos ZonedLayout::TransferTime(uint64_t lba, uint64_t sectors) const {
  double ns = 0;
  auto it = std::upper_bound(zones_.begin(), zones_.end(), lba,
                             [](uint64_t v, const Zone& z) { return v < z.first_lba; }) -
            1;
  while (sectors > 0 && it != zones_.end()) {
    const uint64_t in_zone = std::min(sectors, it->first_lba + it->sectors - lba);
    ns += static_cast<double>(in_zone) * SectorNs(*it);
    sectors -= in_zone;
    lba += in_zone;
    ++it;
  }
  return Nanos(static_cast<int64_t>(std::ceil(ns)));
}

uint64_t ZonedLayout::SectorsIn(uint64_t lba, Nanos t) const {
  double left = static_cast<double>(t.count());
  uint64_t n = 0;
  auto it = std::upper_bound(zones_.begin(), zones_.end(), lba,
                             [](uint64_t v, const Zone& z) { return v < z.first_lba; }) -
            1;
  while (left > 0 && it != zones_.end()) {
    const uint64_t in_zone = it->first_lba + it->sectors - lba;
    const uint64_t fit = static_cast<uint64_t>(left / SectorNs(*it));
    if (fit < in_zone) return n + fit;
    n += in_zone;
    lba += in_zone;
    left -= static_cast<double>(in_zone) * SectorNs(*it);
    ++it;
  }
  return n;
}

double ZonedLayout::AngleAt(Nanos t) const {
  return std::fmod(static_cast<double>(t.count()), rev_ns_) / rev_ns_;
}

Nanos ZonedLayout::WaitFor(Nanos t, double angle, double on_time_ns) const {
  double ns = (angle - AngleAt(t)) * rev_ns_;
  if (ns < -on_time_ns) ns += rev_ns_;
  if (ns > rev_ns_ - on_time_ns) ns -= rev_ns_;
  return Nanos(std::llround(ns));
}

}  // namespace storlab
