// The FUSE glue: libfuse's low-level operations, each a call into a Vfs
// (sim/serve/vfs/vfs.h) whose answer becomes exactly one fuse_reply_*.
// Answers that wait for the simulated device arrive on a service reply
// thread, after the handler has returned: no FUSE thread waits for the
// model. No model logic here; no exception crosses into libfuse.
//
// Thread-safe: libfuse's worker threads call the handlers concurrently.
#ifndef STORLAB_FUSEFS_FUSE_OPS_H_
#define STORLAB_FUSEFS_FUSE_OPS_H_

#define FUSE_USE_VERSION 314
#include <fuse_lowlevel.h>

#include "sim/serve/vfs/vfs.h"

namespace storlab::fusefs {

// What the handlers share (fuse_req_userdata).
struct Fs {
  Vfs* vfs = nullptr;
  double timeout = 1.0;  // entry and attribute cache, seconds
  bool writeback_cache = false;
  uint32_t max_write = 1u << 20;
  // -o options for the connection (max_write=, async_read, ...), parsed by
  // fuse_parse_conn_info_opts; applied first in init. May be null.
  fuse_conn_info_opts* conn_opts = nullptr;
  // Filled by init: what the kernel granted.
  bool writeback_granted = false;
  unsigned max_write_granted = 0;
};

// The operations table (fuse_session_new's op argument).
const fuse_lowlevel_ops& Operations();

}  // namespace storlab::fusefs

#endif  // STORLAB_FUSEFS_FUSE_OPS_H_
