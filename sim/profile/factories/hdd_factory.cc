// MakeHdd: reads an hdd node's profile keys into Hdd::Config, fits the seek
// curves and lays out the zones, and builds the drive.
#include <memory>
#include <string>

#include "sim/devices/hdd.h"
#include "sim/profile/factories/factories.h"
#include "sim/random.h"

namespace storlab {
namespace {

// The seek figures of one direction: `prefix` "" for reads, "write_" for writes.
void ReadSeek(Params& p, const char* prefix, SeekCurve::Figures* f) {
  const std::string pre = prefix;
  const std::string dir = pre.empty() ? "read" : "write";
  p.Duration({pre + "track_to_track", "one-cylinder " + dir + " seek, settle included"},
             &f->track_to_track);
  p.Duration({pre + "average_seek", "average " + dir + " seek over all seek lengths"}, &f->average);
  p.Duration({pre + "full_stroke", "end-to-end " + dir + " seek"}, &f->full_stroke);
  p.Duration({pre + "settle", dir + " settle time every seek beyond one track pays"}, &f->settle);
}

}  // namespace

Result<std::unique_ptr<Node>> MakeHdd(Params& p, BuildContext& ctx) {
  Hdd::Config c;
  p.Size({"capacity", "the drive's size (a multiple of physical_block)"}, &c.capacity,
         uint64_t{1} << 20);
  p.Int({"logical_block", "sector size clients see, bytes: 512 or 4096"}, &c.logical_block, 512,
        4096);
  p.Int({"physical_block", "sector size on the platter, bytes (512e: 4096)"}, &c.physical_block,
        512, 65536);
  p.Int({"rpm", "spindle speed, revolutions per minute"}, &c.rpm, 1000, 20000);
  p.Int({"heads", "recording surfaces (two per platter)"}, &c.heads, 1, 64);
  p.Int({"zones", "recording zones, each with its own data rate"}, &c.zones, 1, 1000);
  p.Rate({"outer_rate", "media rate in the outermost zone"}, &c.outer_rate);
  p.Fraction({"inner_fraction", "innermost zone's rate as a fraction of outer_rate"},
             &c.inner_fraction);
  ReadSeek(p, "", &c.read_seek);
  ReadSeek(p, "write_", &c.write_seek);
  p.Duration({"command_overhead", "firmware time per command that misses the cache"},
             &c.command_overhead);
  p.Duration({"hit_overhead", "firmware time per command served from the cache"}, &c.hit_overhead);
  p.Duration(
      {"seek_jitter", "with --seed other than 1: each seek up to this much longer or shorter"},
      &c.seek_jitter);
  c.seed = ctx.seed;
  p.Rate({"interface_rate", "host interface payload rate (SATA 6 Gb/s: 600MB/s)"},
         &c.interface_rate);
  p.Int({"queue_depth", "NCQ tags: commands the drive reorders at once"}, &c.queue_depth, 1, 256);
  p.Duration({"ncq_age_limit", "a command that waited this long is served before nearer ones"},
             &c.scheduler.age_limit);
  p.Duration(
      {"rpo_guard", "scheduler margin: a sector reached with less to spare counts a turn later"},
      &c.scheduler.guard);
  p.Bool({"write_cache",
          "volatile write cache on (WCE): writes acknowledged before they reach the platter"},
         &c.write_cache);
  p.Size({"cache_size", "the drive's DRAM cache"}, &c.cache_size, 4096);
  p.Int({"cache_segments", "dirty segments the write cache tracks"}, &c.cache_segments, 1, 1 << 20);
  p.Int({"destage_window", "dirty segments weighed per destage choice"}, &c.destage_window, 1,
        1024);
  p.Size({"destage_max", "largest single destage write to the platter"}, &c.destage_max, 4096);
  p.Size({"read_ahead", "data read beyond a read into the cache"}, &c.read_ahead);
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
