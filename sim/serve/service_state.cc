// Service: a saved state for the exports (service.h, ServiceOptions::
// state_dir; sim/state_dir.h for the format): restored into the stack just
// loaded, saved at shutdown once the stack is idle — so an NBD export or a
// mount carries its disk, its caches and its wear from one run to the next.
#include "sim/serve/service.h"
#include "sim/stack_state.h"
#include "sim/state_dir.h"
#include "sim/virtual_driver.h"

namespace storlab {

Result<bool> Service::RestoreState() {
  const std::string& dir = options_.state_dir;
  Stack& stack = *loaded_.stack;
  // Refused before anything runs, so no run is served for nothing.
  RETURN_IF_ERROR(CheckStackCanSave(stack).WithContext("state " + dir));
  ASSIGN_OR_RETURN(auto image, LoadStateDir(dir));
  if (!image) return false;
  RETURN_IF_ERROR(CompareStateStack(dir, image->stack, StackIdentity(loaded_.resolved)));
  const bool keeps = options_.store.kind != DataMode::Kind::kNone;
  if (image->keeps_data != keeps) {
    return Status::InvalidArgument("state " + dir + " was saved " +
                                   (image->keeps_data ? "with data" : "timing-only (store=none)") +
                                   ", this run is " + (keeps ? "with data" : "timing-only") +
                                   ": give a new DIR");
  }
  engine_.AdvanceTo(image->clock);
  RETURN_IF_ERROR(RestoreStackNodes(stack, *image, dir));
  return true;
}

Status Service::SaveState() {
  // The driver has stopped: this thread owns the engine.
  VirtualDriver(engine_).RunUntilIdle();
  StateImage image;
  image.clock = engine_.now();
  image.keeps_data = options_.store.kind != DataMode::Kind::kNone;
  image.stack = StackIdentity(loaded_.resolved);
  ASSIGN_OR_RETURN(image.parts, SaveStackNodes(*loaded_.stack));
  return SaveStateDir(options_.state_dir, image);
}

}  // namespace storlab
