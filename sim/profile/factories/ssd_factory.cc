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
  p.Size({"capacity", "user-visible size"}, &c->capacity, 1 << 20);
  p.Size({"raw_capacity", "NAND bytes behind it; 0: capacity x 2^30/10^9"}, &c->raw_capacity);
  p.Int({"logical_block", "block size clients see, bytes"}, &c->logical_block, 512, 65536);
  p.Int({"physical_block", "block size the drive reports as physical, bytes"}, &c->physical_block,
        512, 65536);

  std::string iface = c->interface == SsdConfig::Interface::kSata ? "sata" : "nvme";
  p.Enum({"interface", "command protocol: SATA (half duplex, NCQ) or NVMe"}, &iface,
         {"sata", "nvme"});
  c->interface = iface == "sata" ? SsdConfig::Interface::kSata : SsdConfig::Interface::kNvme;
  p.Int({"queue_depth", "commands outstanding at once (SATA NCQ: at most 32)"}, &c->queue_depth, 1,
        65536);
  p.Rate({"link_rate", "host link payload rate"}, &c->link_bytes_per_s);
  p.Duration(
      {"link_command_overhead", "link time per command (SQE fetch, CQE, doorbell, interrupt)"},
      &c->link_command_overhead);
  p.Duration({"read_command_time", "controller time per read command (parse, L2P lookup)"},
             &c->read_command_time);
  p.Duration(
      {"write_command_time", "controller time per write command (allocate, buffer, map update)"},
      &c->write_command_time);
  p.Double({"max_read_iops", "controller ceiling on read commands per second"}, &c->max_read_iops,
           0, 1e9);
  p.Double({"max_write_iops", "controller ceiling on write commands per second"},
           &c->max_write_iops, 0, 1e9);
  p.Rate({"write_rate", "controller write path ceiling"}, &c->write_bytes_per_s,
         Params::Zero::kNoLimit);

  p.Int({"channels", "flash channels"}, &c->channels, 1, 64);
  p.Int({"dies_per_channel", "NAND dies on each channel"}, &c->dies_per_channel, 1, 64);
  p.Int({"planes", "planes per die: independent read units; a program writes all"}, &c->planes, 1,
        16);
  p.Size({"page_size", "NAND page size"}, &c->page_size, 4096, 1 << 20);
  p.Int({"cell_bits", "bits per cell: 1 SLC, 2 MLC, 3 TLC, 4 QLC"}, &c->cell_bits, 1, 4);
  p.Rate({"channel_rate", "data rate of one flash channel"}, &c->channel_bytes_per_s);
  p.Duration({"read_time", "NAND page read time (native cells)"}, &c->read_time,
             Params::Bound::kPositive);
  p.Duration({"slc_read_time", "NAND page read time in SLC mode"}, &c->slc_read_time,
             Params::Bound::kPositive);
  p.Duration({"program_time", "one native program (page_size x planes x cell_bits on a die)"},
             &c->program_time, Params::Bound::kPositive);
  p.Duration({"slc_program_time", "one SLC-mode program (page_size x planes)"},
             &c->slc_program_time, Params::Bound::kPositive);
  p.Duration({"erase_time", "erase of one block"}, &c->erase_time);
  p.Size({"block_size", "erase block: erased at once on one die"}, &c->block_size, 4096);

  p.Size({"slc_static", "fixed SLC cache"}, &c->slc_static);
  p.Size({"slc_dynamic", "further SLC cache taken from free space, at most"}, &c->slc_dynamic);

  p.Duration({"idle_delay", "quiet time before folding and idle garbage collection"},
             &c->idle_delay);
  p.Fraction({"gc_idle_target", "fraction of the reclaimable space idle GC frees"},
             &c->gc_idle_target);
  p.Fraction({"prefill", "fraction of the LBA space mapped at power-on"}, &c->prefill);
  p.Fraction({"program_jitter",
              "with --seed other than 1: each program up to this fraction longer or shorter"},
             &c->program_jitter);

  p.Size({"map_cache", "L2P table bytes the controller holds; 0: all of it in DRAM"},
         &c->map_cache);

  p.Size({"write_buffer", "DRAM holding acknowledged writes"}, &c->write_buffer, 4096);
  p.Duration({"write_buffer_timeout", "a partial program waits at most this for more data"},
             &c->write_buffer_timeout);
  p.Bool({"plp", "power-loss protection: the write buffer survives a power cut"}, &c->plp);
  p.Bool({"flush_despite_plp", "with plp, still program the buffer and commit on every FLUSH"},
         &c->flush_despite_plp);
  p.Duration({"flush_commit_time", "journal commit after a FLUSH or FUA"}, &c->flush_commit_time);
  ReadPowerCut(p, &c->power_cut);

  p.Int({"rated_pe_cycles", "rated program/erase cycles per block"}, &c->rated_pe_cycles, 1,
        1000000);
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
