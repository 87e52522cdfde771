// loss-placement: registers the rule; all of it is in LossPlacementRule.h and lib/ModulePlacement.
#include "LossPlacementRule.h"

namespace to_device_migrate {

static RuleRegistry::Add<RuleFactoryFor<LossPlacementRule, 40>>
    Registration("loss-placement",
                 "move every loss-function module with ->to(device) right after it exists");

} // namespace to_device_migrate
