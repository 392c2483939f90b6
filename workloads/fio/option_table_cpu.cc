// The option table's CPU affinity entries (options.h): cpumask,
// cpus_allowed and cpus_allowed_policy, which limit the simulated host's
// cores a job's CPU bursts run on (workloads/host/cpu_pool.h). Parsed as
// fio 3.33's options.c str_cpumask_cb() and set_cpus_allowed() do; the
// CPUs are checked against the host's cores when the run is prepared
// (fio_run.cc), as fio checks them against cpus_configured(). Help texts
// are fio's own.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include "sim/quoted.h"
#include "workloads/fio/options.h"

// The table below uses designated initializers and relies on member defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace storlab::fio {
namespace {

constexpr uint32_t kMaxCpus = 1024;  // os/os-linux.h FIO_MAX_CPUS (CPU_SETSIZE)

// A whole number, decimal or 0x-hex (parse.c str_to_decimal()).
bool CpuNumber(std::string_view s, uint64_t* out) {
  if (s.empty()) return false;
  const std::string t(s);
  const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  const size_t from = hex ? 2 : 0;
  for (size_t i = from; i < t.size(); ++i) {
    if (!(hex ? std::isxdigit(static_cast<unsigned char>(t[i]))
              : std::isdigit(static_cast<unsigned char>(t[i])))) {
      return false;
    }
  }
  errno = 0;
  *out = std::strtoull(t.c_str() + from, nullptr, hex ? 16 : 10);
  return errno == 0;
}

// "0-3,5": the CPUs, sorted, each once; an error names what is wrong.
Status ParseCpuList(std::string_view v, std::vector<uint32_t>* cpus) {
  std::vector<uint32_t> out;
  size_t start = 0;
  while (start <= v.size()) {
    size_t comma = v.find(',', start);
    std::string_view part =
        v.substr(start, comma == std::string_view::npos ? v.npos : comma - start);
    if (part.empty()) break;  // set_cpus_allowed(): an empty entry ends the list
    size_t dash = part.find('-');
    uint64_t lo = 0, hi = 0;
    if (!CpuNumber(part.substr(0, dash), &lo) ||
        (dash != std::string_view::npos && !CpuNumber(part.substr(dash + 1), &hi))) {
      return Status::InvalidArgument(Quoted(part) + ": expected a CPU number or a range N-M");
    }
    if (dash == std::string_view::npos) hi = lo;
    if (hi < lo) return Status::InvalidArgument(Quoted(part) + ": the range runs backwards");
    if (hi >= kMaxCpus) {
      return Status::InvalidArgument("your OS only supports up to " + std::to_string(kMaxCpus) +
                                     " CPUs");
    }
    for (uint64_t c = lo; c <= hi; ++c) out.push_back(static_cast<uint32_t>(c));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (out.empty()) return Status::InvalidArgument("no CPU given");
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  *cpus = std::move(out);
  return Status();
}

// str_cpumask_cb(): the bits of an int (bit i: CPU i; higher bits are not
// looked at).
Status ParseCpuMask(std::string_view v, std::vector<uint32_t>* cpus) {
  uint64_t mask = 0;
  if (!CpuNumber(v, &mask)) {
    return Status::InvalidArgument(Quoted(v) + ": expected a CPU bit mask (3, 0x3)");
  }
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < 32; ++i) {
    if (mask >> i & 1) out.push_back(i);
  }
  if (out.empty()) return Status::InvalidArgument("the mask sets no CPU");
  *cpus = std::move(out);
  return Status();
}

}  // namespace

void AddCpuOptions(std::vector<OptionDef>* t) {
  using O = JobOptions;
  auto add = [&](OptionDef d) { t->push_back(std::move(d)); };
  // memory.c fio_pin_memory(): memory the job locks while it runs, which
  // the simulated host's page cache then cannot use (job_runner_lockmem.cc).
  add({.name = "lockmem",
       .type = OptType::kSize,
       .target = &O::lockmem,
       .def = "0",
       .min = 0,
       .help = "Lock down this amount of memory (per worker)"});
  add({.name = "cpumask",
       .type = OptType::kString,
       .target = &O::cpumask,
       .help = "CPU affinity mask",
       .check =
           [](std::string_view v) {
             std::vector<uint32_t> c;
             return ParseCpuMask(v, &c);
           },
       .then = [](JobOptions* o, std::string_view v) { (void)ParseCpuMask(v, &o->cpus); }});
  add({.name = "cpus_allowed",
       .type = OptType::kString,
       .target = &O::cpus_allowed,
       .help = "Set CPUs allowed",
       .check =
           [](std::string_view v) {
             std::vector<uint32_t> c;
             return ParseCpuList(v, &c);
           },
       .then = [](JobOptions* o, std::string_view v) { (void)ParseCpuList(v, &o->cpus); }});
  add({.name = "cpus_allowed_policy",
       .type = OptType::kEnum,
       .target = &O::cpus_allowed_policy,
       .def = "shared",
       .values = {{"shared", "Mask shared between threads"},
                  {"split", "Mask split between threads"}},
       .help = "Distribution policy for cpus_allowed"});
}

}  // namespace storlab::fio
