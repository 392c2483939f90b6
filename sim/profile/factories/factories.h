// The factory of every node type (the table in sim/profile/node_types.cc
// lists them). A factory reads its node's keys from `params` into the
// model's plain Config (models know nothing of TOML or Params), checks them
// and ctx.children against what the model needs, and builds the node; a bad
// key or value becomes an error naming file, line and key. One file per
// node type: sim/profile/factories/<type>_factory.cc. Thread-compatible.
#ifndef STORLAB_SIM_PROFILE_FACTORIES_FACTORIES_H_
#define STORLAB_SIM_PROFILE_FACTORIES_FACTORIES_H_

#include <memory>

#include "sim/node.h"
#include "sim/profile/node_types.h"
#include "sim/profile/params.h"
#include "sim/status.h"
#include "sim/store/power_loss.h"

namespace storlab {

// Devices (sim/devices/): the leaves of a stack.
Result<std::unique_ptr<Node>> MakeRamDisk(Params& params, BuildContext& ctx);  // "ram"
Result<std::unique_ptr<Node>> MakeHdd(Params& params, BuildContext& ctx);      // "hdd"
Result<std::unique_ptr<Node>> MakeSsd(Params& params, BuildContext& ctx);      // "ssd"

// Layers (sim/layers/): nodes with children.
Result<std::unique_ptr<Node>> MakeLink(Params& params, BuildContext& ctx);       // "link"
Result<std::unique_ptr<Node>> MakeNfs(Params& params, BuildContext& ctx);        // "nfs"
Result<std::unique_ptr<Node>> MakeIscsi(Params& params, BuildContext& ctx);      // "iscsi"
Result<std::unique_ptr<Node>> MakeCache(Params& params, BuildContext& ctx);      // "cache"
Result<std::unique_ptr<Node>> MakePageCache(Params& params, BuildContext& ctx);  // "page_cache"
Result<std::unique_ptr<Node>> MakeConcat(Params& params, BuildContext& ctx);     // "concat"
Result<std::unique_ptr<Node>> MakeZfs(Params& params, BuildContext& ctx);        // "zfs"
Result<std::unique_ptr<Node>> MakeRaid(Params& params, BuildContext& ctx);       // "raid"
Result<std::unique_ptr<Node>> MakeFaults(Params& params, BuildContext& ctx);     // "faults"
Result<std::unique_ptr<Node>> MakeRmw(Params& params, BuildContext& ctx);        // "rmw"
Result<std::unique_ptr<Node>> MakeThin(Params& params, BuildContext& ctx);       // "thin"
Result<std::unique_ptr<Node>> MakeVm(Params& params, BuildContext& ctx);         // "vm"
Result<std::unique_ptr<Node>> MakeQcow2(Params& params, BuildContext& ctx);      // "qcow2"

// The `power_cut` key of a device with a volatile write cache: what a power
// cut leaves of it ("drop", "any-subset", "torn"; sim/store/power_loss.h).
void ReadPowerCut(Params& params, PowerCutMode* mode);

}  // namespace storlab

#endif  // STORLAB_SIM_PROFILE_FACTORIES_FACTORIES_H_
