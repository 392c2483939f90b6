// fio's verify state files (verify-state.h; verify.c get_all_io_list(),
// write_thread_list_state(), verify_load_state(), verify_state_should_stop()).
// With verify_state_save=1 (fio's default) a job that writes with verify=
// leaves, when it ends, `local-NAME-INDEX-verify.state` in the current
// directory: how many writes it issued and the offsets of its last iodepth
// completed writes in each file. A later run with verify_state_load=1
// reads it back, and its verification stops at the first block of the
// last iodepth writes that had not completed — for checking what survived
// a crash.
//
// The file is fio 3.33's, byte for byte: struct verify_state_hdr (version
// 3, size, crc32c of what follows) and struct thread_io_list, little-endian.
// Its random generator state (fio's random_state, which the loader reads
// and never uses) is written as zeros: storlab's generators are not fio's.
// Thread-safe (pure functions).
#ifndef STORLAB_WORKLOADS_FIO_VERIFY_STATE_H_
#define STORLAB_WORKLOADS_FIO_VERIFY_STATE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/status.h"

namespace storlab::fio {

struct VerifyState {
  struct Comp {
    uint64_t fileno;  // the file's index in the job
    uint64_t offset;
  };
  uint64_t numberio = 0;  // writes issued (fio's io_issues[DDIR_WRITE])
  uint32_t depth = 1;     // iodepth
  uint32_t nofiles = 1;
  uint64_t index = 0;  // the job's number - 1
  std::string name;    // the job's
  std::vector<Comp> comps;
};

// verify_state_gen_name() with fio's "local" prefix: '/' in the name
// becomes '.'.
std::string VerifyStateFileName(const std::string& job_name, uint64_t index);

// write_thread_list_state(): the file's bytes.
std::vector<uint8_t> EncodeVerifyState(const VerifyState& s);

// verify_load_state(): the state in `bytes`, or an error whose message is
// fio's ("fio: verify state is corrupt", ...).
Result<VerifyState> DecodeVerifyState(const std::vector<uint8_t>& bytes);

// verify_state_should_stop(): whether verifying the block at `offset` of
// file `fileno` stops the job, `reads_done` reads having completed (fio's
// io_blocks[DDIR_READ]): only within the last `depth` writes, and only when
// the block is not one of the writes seen completed.
// Writes `bytes` (EncodeVerifyState()) as the state file of job `name`
// number `index` + 1 into the current directory (open_state_file():
// O_CREAT | O_TRUNC). An error names the file.
Status WriteVerifyStateFile(const std::vector<uint8_t>& bytes, const std::string& name,
                            uint64_t index);
// Reads it back (verify_load_state()); an error's message is fio's.
Result<VerifyState> ReadVerifyStateFile(const std::string& name, uint64_t index);

bool VerifyStateStops(const VerifyState& s, uint64_t reads_done, uint64_t fileno, uint64_t offset);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_VERIFY_STATE_H_
