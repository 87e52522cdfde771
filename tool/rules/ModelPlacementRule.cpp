// model-placement: registers the rule; all of it is in ModelPlacementRule.h and lib/ModulePlacement.
#include "ModelPlacementRule.h"

namespace to_device_migrate {

} // namespace to_device_migrate
