// loss-placement: every loss function variable the program creates (outside another
// module's constructor) is moved once, right after it exists:
//   torch::nn::CrossEntropyLoss loss_f(opts);  ->  ... loss_f->to(device);
// Matters when the loss holds tensors (class weights): they must be on the device too.
#pragma once

#include "modules/ModulePlacement.h"

namespace to_device_migrate {

class LossPlacementRule : public ModuleVariableRule {
public:
  using ModuleVariableRule::ModuleVariableRule;
  bool handles(const clang::CXXRecordDecl *ModuleClass) const override {
    return isLossModule(ModuleClass);
  }
};

} // namespace to_device_migrate
