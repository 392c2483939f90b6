// The NFS mount's saved state (storlab sim --state, docs/state.md): the
// link's two timelines and its jitter generators, and the server's page
// cache (CacheCore::SaveState: blocks, their data when kept, the policy's
// order). Saved once idle: no RPC in flight or waiting for a slot or an
// nfsd thread. The server's dirty throttle (NfsServerDirty: its bandwidth
// estimate) follows its cache. The server's cache is kept as the host's page cache is: the
// run ends without dropping it (the server keeps running); --reboot
// power-cycles the server too, and its cache starts empty. Counters are
// per run.
#include <array>

#include "sim/layers/nfs/nfs.h"
#include "sim/layers/nfs/nfs_link.h"
#include "sim/state_coding.h"

namespace storlab {

void NfsServerDirty::SaveState(StateWriter& w) const {
  throttle_.SaveState(w);
  w.Bool(writing_back_);
}

Status NfsServerDirty::RestoreState(StateReader& r) {
  RETURN_IF_ERROR(throttle_.RestoreState(r));
  writing_back_ = r.Bool();
  return r.status();
}

void NfsLink::SaveState(StateWriter& w) const {
  for (const auto& s : jitter_.state()) w.Words(s);
  for (const Pipe& p : pipes_) {
    w.Time(p.free_at);
    w.Time(p.arrived);
  }
}

Status NfsLink::RestoreState(StateReader& r) {
  std::array<Random::State, 2> jitter;
  for (auto& s : jitter) s = r.Words();
  for (Pipe& p : pipes_) {
    p.free_at = r.Time();
    p.arrived = r.Time();
  }
  RETURN_IF_ERROR(r.status());
  jitter_.set_state(jitter);
  return Status();
}

Status Nfs::SaveState(StateWriter& w) const {
  if (in_flight_ || busy_threads_ || !slot_waiters_.empty() || !thread_waiters_.empty()) {
    return Status::Internal("nfs mount not idle");
  }
  link_.SaveState(w);
  w.Bool(cache_ != nullptr);
  if (cache_) {
    RETURN_IF_ERROR(cache_->SaveState(w));
    server_dirty_->SaveState(w);
  }
  return Status();
}

Status Nfs::RestoreState(StateReader& r) {
  RETURN_IF_ERROR(link_.RestoreState(r));
  if (r.Bool() != (cache_ != nullptr) && r.ok()) r.Fail("saved with(out) a server cache");
  RETURN_IF_ERROR(r.status());
  if (cache_) {
    RETURN_IF_ERROR(cache_->RestoreState(r));
    RETURN_IF_ERROR(server_dirty_->RestoreState(r));
  }
  return r.status();
}

}  // namespace storlab
