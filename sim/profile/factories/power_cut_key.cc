#include <string>

#include "sim/profile/factories/factories.h"

namespace storlab {

void ReadPowerCut(Params& params, PowerCutMode* mode) {
  std::string name(PowerCutModeName(*mode));
  params.Enum("power_cut", &name, {"drop", "any-subset", "torn"});
  ParsePowerCutMode(name, mode);
}

}  // namespace storlab
