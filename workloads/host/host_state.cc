#include "workloads/host/host_state.h"

#include <sstream>
#include <string>

#include "sim/stack_state.h"
#include "sim/state_coding.h"
#include "sim/state_dir.h"
#include "sim/virtual_driver.h"

namespace storlab {

std::string HostIdentity(const SimHost& host) {
  const std::string out = StackIdentity(host.resolved());
  const HostSpec& h = host.host();
  std::ostringstream s;
  s.precision(17);
  s << "host mem = " << h.mem_bytes << "\nhost used_mem = " << h.used_mem_bytes
    << "\nhost cores = " << h.cores << "\nhost copy_rate_per_core = " << h.copy_bytes_per_s_per_core
    << "\nhost memory_bandwidth = " << h.memory_bandwidth
    << "\nhost dirty_background_ratio = " << h.dirty_background_ratio
    << "\nhost dirty_ratio = " << h.dirty_ratio
    << "\nhost dirty_expire_ns = " << h.dirty_expire.count()
    << "\nhost writeback_interval_ns = " << h.writeback_interval.count() << "\n";
  return out + s.str();
}

Status CheckHostCanSave(const SimHost& host) { return CheckStackCanSave(host.stack()); }

Result<bool> RestoreHostState(SimHost& host, const std::string& dir, Env* env) {
  ASSIGN_OR_RETURN(auto image, LoadStateDir(dir, env));
  if (!image) return false;
  RETURN_IF_ERROR(CompareStateStack(dir, image->stack, HostIdentity(host)));
  if (image->keeps_data != host.keeps_data()) {
    return Status::InvalidArgument(
        "state " + dir + " was saved by a run that " +
        (image->keeps_data ? "kept data" : "was timing-only (no data)") + ", this run " +
        (host.keeps_data() ? "keeps data (verify=, --power-cuts)" : "is timing-only") +
        ": give a new DIR");
  }
  Engine& engine = host.engine();
  if (!engine.empty() || engine.now() > image->clock) {
    return Status::Internal("RestoreHostState: the host has already run");
  }
  engine.AdvanceTo(image->clock);
  RETURN_IF_ERROR(RestoreStackNodes(host.stack(), *image, dir));
  const StateImage::Part* fs = nullptr;
  for (const auto& p : image->parts) {
    if (p.kind == "fs") fs = &p;
  }
  if (!fs) return Status::InvalidArgument("state " + dir + " has no file system (fs.state)");
  StateReader r(fs->bytes, dir + "/" + StatePartFile(*fs));
  RETURN_IF_ERROR(host.fs().RestoreState(r));
  RETURN_IF_ERROR(r.Finish());
  return true;
}

Status SaveHostState(SimHost& host, const std::string& dir, Env* env) {
  VirtualDriver(host.engine()).RunUntilIdle();
  StateImage image;
  image.clock = host.engine().now();
  image.keeps_data = host.keeps_data();
  image.stack = HostIdentity(host);
  ASSIGN_OR_RETURN(image.parts, SaveStackNodes(host.stack()));
  StateWriter w;
  host.fs().SaveState(w);
  image.parts.push_back({.kind = "fs", .name = "", .type = "", .bytes = w.Take()});
  return SaveStateDir(dir, image, env);
}

}  // namespace storlab
