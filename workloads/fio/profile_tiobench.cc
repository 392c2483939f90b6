// fio --profile=tiobench (profiles.h), as fio 3.33's profiles/tiobench.c
// makes it: tb_prep_cmdline() fills tb_opts[], which load_profile() hands
// to init.c add_job_opts(): the options before the first name= are global
// (they go to fio's def_thread, over the command line's globals), each
// name= starts a job.
//
// fio 3.33 registers the profile's options (size in MiB, block, numruns,
// dir, threads) but tb_prep_cmdline() reads file-static variables that
// nothing sets (the options write struct tiobench_options): whatever they
// say, the jobs get size=4*1024*$mb_memory, bs=4096, loops=1,
// directory=./ and numjobs=1 (real fio 3.33 with --size=1 --block=8192
// --numruns=2 --dir=/tmp/x --threads=3, --debug=parse: the same options
// as without). storlab does the same; the options are accepted and
// ignored (option_table_io.cc).
//
// act (profiles/act.c) is not modelled: its jobs are made at run time by
// its own I/O hooks (act_td_init(), act_io_u_lat(): per-queue threads, a
// load ramp, latency buckets judged against ACT's pass/fail thresholds),
// which the job model has no place for.
#include <string>

#include "sim/quoted.h"
#include "workloads/fio/profiles.h"

namespace storlab::fio {
namespace {

RawSection TiobenchSection(const std::string& name, const std::vector<std::string>& opts) {
  RawSection s{name, "--profile=tiobench (" + name + ")", {}};
  for (const std::string& o : opts) {
    RawEntry e;
    const size_t eq = o.find('=');
    e.key = o.substr(0, eq);
    e.where = "--profile=tiobench (" + e.key + ")";
    if (eq != std::string::npos) {
      e.value = o.substr(eq + 1);
      e.has_value = true;
    }
    s.entries.push_back(std::move(e));
  }
  return s;
}

}  // namespace

Result<std::vector<RawSection>> ProfileSections(std::string_view name, uint64_t host_mem_bytes) {
  if (name == "act") {
    return Status::InvalidArgument(
        "--profile=act is not supported: fio's ACT profile drives its jobs from its own I/O "
        "hooks at run time (per-queue threads, a load ramp, latency buckets judged against "
        "ACT's thresholds), which storlab sim does not model");
  }
  if (name != "tiobench") {
    return Status::InvalidArgument("--profile=" + Printable(name) + ": fio: profile " +
                                   Quoted(name) + " not found (fio 3.33 has tiobench and act)");
  }
  // options.c's $mb_memory: the memory in MiB; "4*1024*$mb_memory" is
  // evaluated to bytes.
  const uint64_t size = 4 * 1024 * (host_mem_bytes / (1024 * 1024));
  std::vector<RawSection> out;
  out.push_back(TiobenchSection(
      "global", {"buffered=0", "size=" + std::to_string(size), "bs=4096", "loops=1", "directory=./",
                 "numjobs=1", "timeout=600", "group_reporting", "thread", "overwrite=1",
                 "filename=.fio.tio.1:.fio.tio.2:.fio.tio.3:.fio.tio.4", "ioengine=sync"}));
  out.push_back(TiobenchSection("seqwrite", {"name=seqwrite", "rw=write", "end_fsync=1"}));
  out.push_back(
      TiobenchSection("randwrite", {"name=randwrite", "stonewall", "rw=randwrite", "end_fsync=1"}));
  out.push_back(TiobenchSection("seqread", {"name=seqread", "stonewall", "rw=read"}));
  out.push_back(TiobenchSection("randread", {"name=randread", "stonewall", "rw=randread"}));
  return out;
}

}  // namespace storlab::fio
