// CmdPrio: the I/O priority each of a job's I/Os carries, as fio 3.33 gives
// it: the job's own (prio=, prioclass=: backend.c ioprio_set(), td->ioprio,
// 0 when neither is given) and, with the libaio and io_uring engines'
// cmdprio_percentage= or cmdprio_bssplit= (engines/cmdprio.c), another one
// for a share of the reads and writes (cmdprio_class=, cmdprio=; the class
// is RT unless given). A priority is the kernel's ioprio value
// (class << 13 | level, os/os-linux.h ioprio_value()).
//
// The simulated devices and layers have no priority scheduling (no
// mq-deadline/bfq classes, no NVMe arbitration): the value changes no
// timing. It is carried as fio carries it, into the per-I/O logs'
// priority column (log_prio) and the per-priority latencies
// (thread_stat.h PrioStat).
// Thread-compatible.
#ifndef STORLAB_WORKLOADS_FIO_CMDPRIO_H_
#define STORLAB_WORKLOADS_FIO_CMDPRIO_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/status.h"
#include "workloads/fio/fio_rand.h"
#include "workloads/fio/options.h"

namespace storlab::fio {

class CmdPrio {
 public:
  CmdPrio() = default;
  // From the job's options; `reads`/`writes`: the directions the job does.
  // Errors name the option and `where`, as fio's parser refuses them.
  static Result<CmdPrio> Make(const JobOptions& o, bool reads, bool writes,
                              const std::string& where);

  // The option parser's checks of cmdprio_percentage=, cmdprio_class=,
  // cmdprio= ("N" or "N,M" for reads and writes) and cmdprio_bssplit=;
  // the message says what is wrong.
  static Status CheckPercentage(std::string_view v);
  static Status CheckClass(std::string_view v);
  static Status CheckLevel(std::string_view v);
  static Status CheckBssplit(std::string_view v);

  // td->ioprio: the job's priority (0: none set).
  uint32_t job_prio() const { return job_prio_; }
  bool per_io() const { return mode_ != Mode::kNone; }
  // fio_cmdprio_set_ioprio(): the priority of an I/O of direction `dir`
  // (0 read, 1 write) and `length` bytes; draws from `rng` (td->prio_state)
  // when a share of that direction's I/Os takes another priority.
  uint32_t Pick(int dir, uint64_t length, Taus88& rng) const;
  // The priorities fio keeps completion latencies for in direction `dir`
  // (engines/cmdprio.c init_cmdprio_values(), assign_clat_prio_index()):
  // the job's first, then each cmdprio value in the order configured;
  // empty when that direction has no cmdprio share.
  std::vector<uint32_t> StatPrios(int dir) const;

 private:
  enum class Mode { kNone, kPercentage, kBssplit };
  struct Prio {
    uint32_t perc = 0;
    uint32_t prio = 0;
  };
  struct BsPrio {
    uint64_t bs = 0;
    uint32_t tot_perc = 0;
    std::vector<Prio> prios;
  };

  static Status ParseBssplit(std::string_view all, const uint32_t cls[2], const uint32_t level[2],
                             std::vector<BsPrio> out[2]);

  Mode mode_ = Mode::kNone;
  uint32_t job_prio_ = 0;
  Prio perc_[2];
  std::vector<BsPrio> bssplit_[2];
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_CMDPRIO_H_
