// loss-placement: registers the rule; all of it is in LossPlacementRule.h and lib/ModulePlacement.
#include "LossPlacementRule.h"

namespace to_device_migrate {

} // namespace to_device_migrate
