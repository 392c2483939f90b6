// MakeSsd: the "ssd" node type's profile keys, read into SsdConfig
// (sim/devices/ssd_config.h) and checked against each other.
#include <memory>
#include <string>

#include "sim/devices/ssd.h"
#include "sim/devices/ssd_config.h"
#include "sim/profile/factories/factories.h"
#include "sim/random.h"

namespace storlab {
namespace {

// Reads every SSD key from `params` into `*out` (absent keys keep the
// defaults) and checks that the figures agree with each other. Errors name
// the file, line and key.
Status ParseSsdConfig(Params& p, SsdConfig* c) {
  p.Size("capacity", &c->capacity, 1 << 20);
  p.Size("raw_capacity", &c->raw_capacity);
  p.Int("logical_block", &c->logical_block, 512, 65536);
  p.Int("physical_block", &c->physical_block, 512, 65536);

  std::string iface = c->interface == SsdConfig::Interface::kSata ? "sata" : "nvme";
  p.Enum("interface", &iface, {"sata", "nvme"});
  c->interface = iface == "sata" ? SsdConfig::Interface::kSata : SsdConfig::Interface::kNvme;
  p.Int("queue_depth", &c->queue_depth, 1, 65536);
  p.Rate("link_rate", &c->link_bytes_per_s);
  p.Duration("link_command_overhead", &c->link_command_overhead);
  p.Duration("read_command_time", &c->read_command_time);
  p.Duration("write_command_time", &c->write_command_time);
  p.Double("max_read_iops", &c->max_read_iops, 0, 1e9);
  p.Double("max_write_iops", &c->max_write_iops, 0, 1e9);
  p.Rate("write_rate", &c->write_bytes_per_s, Params::Zero::kNoLimit);

  p.Int("channels", &c->channels, 1, 64);
  p.Int("dies_per_channel", &c->dies_per_channel, 1, 64);
  p.Int("planes", &c->planes, 1, 16);
  p.Size("page_size", &c->page_size, 4096, 1 << 20);
  p.Int("cell_bits", &c->cell_bits, 1, 4);
  p.Rate("channel_rate", &c->channel_bytes_per_s);
  p.Duration("read_time", &c->read_time, Params::Bound::kPositive);
  p.Duration("slc_read_time", &c->slc_read_time, Params::Bound::kPositive);
  p.Duration("program_time", &c->program_time, Params::Bound::kPositive);
  p.Duration("slc_program_time", &c->slc_program_time, Params::Bound::kPositive);
  p.Duration("erase_time", &c->erase_time);
  p.Size("block_size", &c->block_size, 4096);

  p.Size("slc_static", &c->slc_static);
  p.Size("slc_dynamic", &c->slc_dynamic);

  p.Duration("idle_delay", &c->idle_delay);
  p.Fraction("gc_idle_target", &c->gc_idle_target);
  p.Fraction("prefill", &c->prefill);
  p.Fraction("program_jitter", &c->program_jitter);

  p.Size("map_cache", &c->map_cache);

  p.Size("write_buffer", &c->write_buffer, 4096);
  p.Duration("write_buffer_timeout", &c->write_buffer_timeout);
  p.Bool("plp", &c->plp);
  p.Bool("flush_despite_plp", &c->flush_despite_plp);
  p.Duration("flush_commit_time", &c->flush_commit_time);
  ReadPowerCut(p, &c->power_cut);

  p.Int("rated_pe_cycles", &c->rated_pe_cycles, 1, 1000000);
  RETURN_IF_ERROR(p.Finish());

  // Figures that must agree with each other.
  if (c->physical_block % c->logical_block != 0) {
    p.Fail("physical_block", "must be a multiple of logical_block");
  } else if (c->capacity % c->logical_block != 0) {
    p.Fail("capacity",
           "must be a multiple of logical_block (" + std::to_string(c->logical_block) + " bytes)");
  } else if (c->interface == SsdConfig::Interface::kSata && c->queue_depth > 32) {
    p.Fail("queue_depth", "SATA NCQ has at most 32 tags");
  } else if (c->page_size % 4096 != 0) {
    p.Fail("page_size", "must be a multiple of 4 KiB");
  } else if (c->block_size < c->native_unit_bytes()) {
    p.Fail("block_size", "must hold at least one program (page_size × planes × cell_bits)");
  } else if (c->write_buffer < 2 * c->native_unit_bytes()) {
    p.Fail("write_buffer",
           "must hold at least two programs (2 × page_size × planes × cell_bits = " +
               std::to_string(2 * c->native_unit_bytes()) + " bytes)");
  } else if (c->raw_bytes() < c->capacity + c->slc_static * c->cell_bits + c->capacity / 64 +
                                  64 * c->native_unit_bytes()) {
    p.Fail(c->raw_capacity ? "raw_capacity" : "slc_static",
           "leaves too little spare NAND: raw_capacity must exceed capacity + slc_static × "
           "cell_bits by at least 1/64 of the capacity");
  }
  return p.Finish();
}

}  // namespace

Result<std::unique_ptr<Node>> MakeSsd(Params& params, BuildContext& ctx) {
  SsdConfig config;
  RETURN_IF_ERROR(ParseSsdConfig(params, &config));
  // --seed: where the write stripe stands when the run starts; programs.
  config.seed = ctx.seed;
  config.stripe_start = Random::InitialOffset(ctx.seed, ctx.node_name + "/stripe");
  ASSIGN_OR_RETURN(auto store, ctx.MakeStore(config.capacity));
  return std::unique_ptr<Node>(
      new Ssd(ctx.engine, ctx.node_name, config, std::move(store), ctx.keeps_data()));
}

}  // namespace storlab
