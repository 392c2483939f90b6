#include "sim/layers/nfs/nfs_server_dirty.h"

#include "sim/host_spec.h"

namespace storlab {
namespace {

HostSpec ServerMemory(uint64_t cache_bytes, double background_ratio, double limit_ratio) {
  HostSpec h;
  h.mem_bytes = cache_bytes;  // the server's dirtyable memory
  h.used_mem_bytes = 0;
  h.dirty_background_ratio = background_ratio;
  h.dirty_ratio = limit_ratio;
  return h;
}

}  // namespace

NfsServerDirty::NfsServerDirty(uint64_t cache_bytes, double background_ratio, double limit_ratio)
    : throttle_(ServerMemory(cache_bytes, background_ratio, limit_ratio)) {}

void NfsServerDirty::OnWrite(Nanos now, uint64_t dirty) {
  // The flusher runs while the cache is over its background threshold
  // (wb_over_bg_thresh): its bandwidth sample starts with it.
  if (!writing_back_ && dirty > throttle_.limits().background) {
    writing_back_ = true;
    throttle_.OnWritebackStart(now);
  }
}

Nanos NfsServerDirty::ReplyAt(Nanos now, uint64_t dirty, uint64_t new_bytes) {
  // balance_dirty_pages_ratelimited() after the copy: the pause the
  // client's page cache takes too (DirtyThrottle::Pause).
  const Nanos at = throttle_.Pause(now, dirty, new_bytes);
  if (at > now) {
    ++paused_writes_;
    paused_time_ += at - now;
  }
  return at;
}

void NfsServerDirty::OnDestaged(Nanos now, uint64_t bytes, uint64_t dirty) {
  throttle_.OnWrittenBack(now, bytes);
  if (writing_back_ && dirty <= throttle_.limits().background) {
    writing_back_ = false;
    throttle_.OnWritebackIdle(now);
  }
}

void NfsServerDirty::Reset() {
  throttle_.Reset();
  writing_back_ = false;
}

}  // namespace storlab
