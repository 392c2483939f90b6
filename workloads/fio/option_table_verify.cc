// The option table's verify entries: verify= (placed where fio lists it)
// and the others (options.h, verify.h). Help texts are fio 3.33's own (options.c).
#include "workloads/fio/fio_pattern.h"
#include "workloads/fio/options.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {

// verify= itself: every checksum type of fio 3.33 (verify.h VERIFY_*).
void AddVerifyTypeOption(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  add({.name = "verify",
       .type = OptType::kEnum,
       .target = &O::verify,
       .def = "0",
       .values = {{"0", "Don't do IO verification"},
                  {"md5", "Use md5 checksums for verification"},
                  {"crc64", "Use crc64 checksums for verification"},
                  {"crc32", "Use crc32 checksums for verification"},
                  {"crc32c-intel",
                   "Use crc32c checksums for verification (hw assisted, if available)"},
                  {"crc32c", "Use crc32c checksums for verification"},
                  {"crc16", "Use crc16 checksums for verification"},
                  {"crc7", "Use crc7 checksums for verification"},
                  {"sha1", "Use sha1 checksums for verification"},
                  {"sha256", "Use sha256 checksums for verification"},
                  {"sha512", "Use sha512 checksums for verification"},
                  {"sha3-224", "Use sha3-224 checksums for verification"},
                  {"sha3-256", "Use sha3-256 checksums for verification"},
                  {"sha3-384", "Use sha3-384 checksums for verification"},
                  {"sha3-512", "Use sha3-512 checksums for verification"},
                  {"xxhash", "Use xxhash checksums for verification"},
                  {"meta", "Use io_u meta data for verification"},
                  {"pattern", "Verify strict pattern"},
                  {"null", "Pretend to verify"}},
       .help = "Verify data written"});
}

void AddVerifyOptions(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  add({.name = "do_verify",
       .type = OptType::kBool,
       .target = &O::do_verify,
       .def = "1",
       .help = "Run verification stage after write"});
  add({.name = "verify_pattern",
       .type = OptType::kString,
       .target = &O::verify_pattern,
       .help = "Fill pattern for IO buffers"});
  // options.c str_buffer_pattern_cb(): writes carry the pattern, repeated
  // from each buffer's start, and are not scrambled.
  add({.name = "buffer_pattern",
       .type = OptType::kString,
       .target = &O::buffer_pattern,
       .help = "Fill pattern for IO buffers",
       .check = [](std::string_view v) { return ParseFioPattern(v).status(); }});
  add({.name = "verify_fatal",
       .type = OptType::kBool,
       .target = &O::verify_fatal,
       .def = "0",
       .help = "Exit on a single verify failure, don't continue"});
  // verify.c get_hdr_inc(), fill_pattern_headers(); at least two headers'
  // worth (options.c minval 2 * sizeof(struct verify_header)).
  add({.name = "verify_interval",
       .type = OptType::kSize,
       .target = &O::verify_interval,
       .min = 80,
       .max = UINT32_MAX,
       .help = "Store verify buffer header every N bytes"});
  // io_u.c check_get_verify(): job_runner_verify.cc.
  add({.name = "verify_backlog",
       .type = OptType::kSize,
       .target = &O::verify_backlog,
       .help = "Verify after this number of blocks are written"});
  add({.name = "verify_backlog_batch",
       .type = OptType::kInt,
       .target = &O::verify_backlog_batch,
       .max = UINT32_MAX,
       .help = "Verify this number of IO blocks"});
  // backend.c / verify.c verify_io_u_async(): reads are checked by N
  // verifier threads (job_runner_verify.cc).
  add({.name = "verify_async",
       .type = OptType::kInt,
       .target = &O::verify_async,
       .def = "0",
       .max = INT32_MAX,
       .help = "Number of async verifier threads to use"});
  add({.name = "verify_dump",
       .type = OptType::kBool,
       .target = &O::verify_dump,
       .def = "0",
       .help = "Dump contents of good and bad blocks on failure"});
  // verify.c populate_hdr(), verify_io_u(): memswp() of the header with the
  // bytes at this offset (verify.h FillVerify()); at least the header's
  // size (options.c minval sizeof(struct verify_header)).
  add({.name = "verify_offset",
       .type = OptType::kInt,
       .target = &O::verify_offset,
       .min = 40,
       .max = UINT32_MAX,
       .help = "Offset verify header location by N bytes"});
  // backend.c do_verify(), do_io(): no log_io_piece(); the pass
  // regenerates the I/Os (job_runner_verify.cc).
  add({.name = "experimental_verify",
       .type = OptType::kBool,
       .target = &O::experimental_verify,
       .def = "0",
       .help = "Enable experimental verification"});
  // verify.c verify_save_state(), verify_load_state(),
  // verify_state_should_stop() (verify_state.h, job_runner_vstate.cc).
  add({.name = "verify_state_load",
       .type = OptType::kBool,
       .target = &O::verify_state_load,
       .def = "0",
       .help = "Load verify termination state"});
  add({.name = "verify_state_save",
       .type = OptType::kBool,
       .target = &O::verify_state_save,
       .def = "1",
       .help = "Save verify state on termination"});
  // Trim verify: trim.c, io_u.c check_get_trim(), iolog.c log_io_piece(),
  // verify.c verify_trimmed_io_u() (verify_trims.h, job_runner_verify.cc).
  add({.name = "trim_percentage",
       .type = OptType::kInt,
       .target = &O::trim_percentage,
       .def = "0",
       .min = 0,
       .max = 100,
       .help = "Number of verify blocks to trim (i.e., discard)"});
  add({.name = "trim_verify_zero",
       .type = OptType::kBool,
       .target = &O::trim_verify_zero,
       .def = "1",
       .help = "Verify that trimmed (i.e., discarded) blocks are returned as zeroes"});
  add({.name = "trim_backlog",
       .type = OptType::kSize,
       .target = &O::trim_backlog,
       .help = "Trim after this number of blocks are written"});
  add({.name = "trim_backlog_batch",
       .type = OptType::kInt,
       .target = &O::trim_backlog_batch,
       .max = UINT32_MAX,
       .help = "Trim this number of IO blocks"});
  // backend.c do_dry_run(), update_runtime(); verify.c verify_header()
  // (job_runner_verify.cc).
  add({.name = "verify_only",
       .type = OptType::kSet,
       .target = &O::verify_only,
       .help = "Verifies previously written data is still valid"});
}

}  // namespace storlab::fio
