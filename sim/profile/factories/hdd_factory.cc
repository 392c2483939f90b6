// MakeHdd: reads an hdd node's profile keys into Hdd::Config, fits the seek
// curves and lays out the zones, and builds the drive.
#include <memory>
#include <string>

#include "sim/devices/hdd.h"
#include "sim/profile/factories/factories.h"
#include "sim/random.h"

namespace storlab {
namespace {

void ReadSeek(Params& p, const char* prefix, SeekCurve::Figures* f) {
  const std::string pre = prefix;
  p.Duration(pre + "track_to_track", &f->track_to_track);
  p.Duration(pre + "average_seek", &f->average);
  p.Duration(pre + "full_stroke", &f->full_stroke);
  p.Duration(pre + "settle", &f->settle);
}

}  // namespace

Result<std::unique_ptr<Node>> MakeHdd(Params& p, BuildContext& ctx) {
  Hdd::Config c;
  p.Size("capacity", &c.capacity, uint64_t{1} << 20);
  p.Int("logical_block", &c.logical_block, 512, 4096);
  p.Int("physical_block", &c.physical_block, 512, 65536);
  p.Int("rpm", &c.rpm, 1000, 20000);
  p.Int("heads", &c.heads, 1, 64);
  p.Int("zones", &c.zones, 1, 1000);
  p.Rate("outer_rate", &c.outer_rate);
  p.Fraction("inner_fraction", &c.inner_fraction);
  ReadSeek(p, "", &c.read_seek);
  ReadSeek(p, "write_", &c.write_seek);
  p.Duration("command_overhead", &c.command_overhead);
  p.Duration("hit_overhead", &c.hit_overhead);
  p.Duration("seek_jitter", &c.seek_jitter);
  c.seed = ctx.seed;
  p.Rate("interface_rate", &c.interface_rate);
  p.Int("queue_depth", &c.queue_depth, 1, 256);
  p.Duration("ncq_age_limit", &c.scheduler.age_limit);
  p.Duration("rpo_guard", &c.scheduler.guard);
  p.Bool("write_cache", &c.write_cache);
  p.Size("cache_size", &c.cache_size, 4096);
  p.Int("cache_segments", &c.cache_segments, 1, 1 << 20);
  p.Int("destage_window", &c.destage_window, 1, 1024);
  p.Size("destage_max", &c.destage_max, 4096);
  p.Size("read_ahead", &c.read_ahead);
  ReadPowerCut(p, &c.power_cut);
  RETURN_IF_ERROR(p.Finish());
  if (c.logical_block != 512 && c.logical_block != 4096) {
    p.Fail("logical_block", "must be 512 or 4096");
  } else if (c.physical_block % c.logical_block != 0) {
    p.Fail("physical_block", "must be a multiple of logical_block");
  } else if (c.capacity % c.physical_block != 0) {
    p.Fail("capacity", "must be a multiple of physical_block");
  } else if (!(c.outer_rate > 0)) {
    p.Fail("outer_rate", "must be positive");
  } else if (!(c.inner_fraction > 0)) {
    p.Fail("inner_fraction", "must be above 0 (the inner zone's rate / the outer's)");
  } else if (!(c.interface_rate > 0)) {
    p.Fail("interface_rate", "must be positive");
  }
  RETURN_IF_ERROR(p.Finish());

  auto layout =
      ZonedLayout::Make({c.capacity, c.heads, c.zones, c.outer_rate, c.inner_fraction, c.rpm});
  if (!layout.ok()) {
    p.Fail("outer_rate", layout.status().message());
    return p.Finish();
  }
  // The seek figures are a full-size drive's; a tiny capacity over many
  // heads leaves few cylinders to fit them over.
  const std::string hint = " (the layout has " + std::to_string(layout->cylinders()) +
                           " cylinders: capacity / (heads x sectors per track); a small "
                           "capacity needs fewer heads)";
  auto read = SeekCurve::Fit(c.read_seek, layout->cylinders());
  if (!read.ok()) p.Fail("average_seek", read.status().message() + hint);
  auto write = SeekCurve::Fit(c.write_seek, layout->cylinders());
  if (!write.ok()) p.Fail("write_average_seek", write.status().message() + hint);
  RETURN_IF_ERROR(p.Finish());

  ASSIGN_OR_RETURN(auto store, ctx.MakeStore(c.capacity));
  HddMechanics mech(std::move(layout).value(), read.value(), write.value());
  // --seed: the spindle's angle and the head's place when the run starts.
  mech.SetStart(Random::InitialOffset(ctx.seed, ctx.node_name + "/spindle"),
                Random::InitialOffset(ctx.seed, ctx.node_name + "/head"));
  return std::unique_ptr<Node>(
      new Hdd(ctx.engine, ctx.node_name, c, std::move(mech), std::move(store)));
}

}  // namespace storlab
