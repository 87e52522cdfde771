// model-placement: registers the rule; all of it is in ModelPlacementRule.h and lib/ModulePlacement.
#include "ModelPlacementRule.h"

namespace to_device_migrate {

static RuleRegistry::Add<RuleFactoryFor<ModelPlacementRule, 30>>
    Registration("model-placement",
                 "move every model variable with ->to(device) right after it exists");

} // namespace to_device_migrate
