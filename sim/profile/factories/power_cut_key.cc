#include <string>

#include "sim/profile/factories/factories.h"

namespace storlab {

void ReadPowerCut(Params& params, PowerCutMode* mode) {
  std::string name(PowerCutModeName(*mode));
  params.Enum({"power_cut",
               "what a power cut leaves of the volatile cache: drop (all lost), any-subset "
               "(each 4 KiB page lands or not), torn (each logical block lands or not)"},
              &name, {"drop", "any-subset", "torn"});
  ParsePowerCutMode(name, mode);
}

}  // namespace storlab
