// model-placement: every model variable the program creates (outside another
// module's constructor) is moved once, right after it exists:
//   auto net = std::make_shared<Net>();   ->  ... net->to(device);
//   torch::nn::Linear fc(5, 2);            ->  ... fc->to(device);
//   Net net;                               ->  ... net.to(device);
#pragma once

#include "modules/ModulePlacement.h"

namespace to_device_migrate {

class ModelPlacementRule : public ModuleVariableRule {
public:
  using ModuleVariableRule::ModuleVariableRule;
  bool handles(const clang::CXXRecordDecl *ModuleClass) const override {
    return !isLossModule(ModuleClass);
  }
};

} // namespace to_device_migrate
