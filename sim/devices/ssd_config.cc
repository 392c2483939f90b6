#include "sim/devices/ssd_config.h"

#include <algorithm>
#include <string>

namespace storlab {

uint64_t SsdConfig::raw_bytes() const {
  if (raw_capacity != 0) return raw_capacity;
  return static_cast<uint64_t>(static_cast<double>(capacity) * (1073741824.0 / 1e9));
}

uint64_t SsdConfig::slc_fold_limit() const {
  const SsdConfig& c = *this;
  // Die time per byte: host data programmed natively, in SLC mode (plus the
  // block's erase), and folded (read cell_bits SLC pages, program natively).
  const auto per_byte = [](Nanos t, uint64_t bytes) {
    return static_cast<double>(t.count()) / static_cast<double>(bytes);
  };
  const double native = per_byte(c.program_time, c.native_unit_bytes());
  const double slc = per_byte(c.slc_program_time, c.slc_unit_bytes()) +
                     per_byte(c.erase_time, c.slc_block_bytes());
  const double fold =
      per_byte(c.slc_read_time * c.cell_bits + c.program_time, c.native_unit_bytes());
  // A block of B bytes holding v valid: reclaiming it and writing B through
  // SLC costs B·slc + v·fold; writing B natively costs B·native.
  const double share = (native - slc) / fold;
  if (share <= 0) return 0;
  return static_cast<uint64_t>(std::min(1.0, share) * static_cast<double>(c.slc_block_bytes()));
}

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
  p.Rate("write_rate", &c->write_bytes_per_s);

  p.Int("channels", &c->channels, 1, 64);
  p.Int("dies_per_channel", &c->dies_per_channel, 1, 64);
  p.Int("planes", &c->planes, 1, 16);
  p.Size("page_size", &c->page_size, 4096, 1 << 20);
  p.Int("cell_bits", &c->cell_bits, 1, 4);
  p.Rate("channel_rate", &c->channel_bytes_per_s);
  p.Duration("read_time", &c->read_time);
  p.Duration("slc_read_time", &c->slc_read_time);
  p.Duration("program_time", &c->program_time);
  p.Duration("slc_program_time", &c->slc_program_time);
  p.Duration("erase_time", &c->erase_time);
  p.Size("block_size", &c->block_size, 4096);

  p.Size("slc_static", &c->slc_static);
  p.Size("slc_dynamic", &c->slc_dynamic);

  p.Duration("idle_delay", &c->idle_delay);
  p.Fraction("gc_idle_target", &c->gc_idle_target);
  p.Fraction("prefill", &c->prefill);

  p.Size("map_cache", &c->map_cache);

  p.Size("write_buffer", &c->write_buffer, 4096);
  p.Duration("write_buffer_timeout", &c->write_buffer_timeout);
  p.Bool("plp", &c->plp);
  p.Bool("flush_despite_plp", &c->flush_despite_plp);
  p.Duration("flush_commit_time", &c->flush_commit_time);

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
  } else if (c->link_bytes_per_s <= 0 || c->channel_bytes_per_s <= 0) {
    p.Fail(c->link_bytes_per_s <= 0 ? "link_rate" : "channel_rate", "must be positive");
  } else if (c->read_time <= Nanos(0) || c->slc_read_time <= Nanos(0) ||
             c->program_time <= Nanos(0) || c->slc_program_time <= Nanos(0)) {
    p.Fail("read_time", "flash read and program times must be positive");
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

}  // namespace storlab
