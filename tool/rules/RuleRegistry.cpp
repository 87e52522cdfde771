// The one list of rewrite rules. Names are stable: they appear in --list-rules,
// in --rules globs, and in the [rule-name] suffix of every finding.
#include "CheckpointLoadRule.h"
#include "DataParallelRule.h"
#include "DataLoaderBatchRule.h"
#include "DeviceDeclarationRule.h"
#include "DiscardedMoveRule.h"
#include "DistributedRule.h"
#include "HardcodedDeviceRule.h"
#include "HostAccessRule.h"
#include "HostMemoryTensorRule.h"
#include "LossPlacementRule.h"
#include "ModelPlacementRule.h"
#include "ReceivedTensorRule.h"
#include "RegistryRule.h"
#include "TensorFactoryRule.h"

namespace to_device_migrate {

llvm::ArrayRef<RuleInfo> allRules() {
  static const RuleInfo Rules[] = {
      {"tensor-factory", "add the device to the options of torch::/at:: factory calls",
       createRule<TensorFactoryRule>},
      {"host-memory-tensor", "move tensors built over host memory (from_blob) with .to(device)",
       createRule<HostMemoryTensorRule>},
      {"model-placement", "move every model variable with ->to(device) right after it exists",
       createRule<ModelPlacementRule>},
      {"loss-placement", "move every loss-function module with ->to(device) right after it exists",
       createRule<LossPlacementRule>},
      {"data-loader-batch", "move each batch's data and target once, at the top of the loop body",
       createRule<DataLoaderBatchRule>},
      {"received-tensor",
       "move tensors returned by code the tool cannot see (another file, a dataset) where they "
       "are received",
       createRule<ReceivedTensorRule>},
      {"hardcoded-device", "make hard-coded CUDA devices (.cuda(), torch::kCUDA) portable",
       createRule<HardcodedDeviceRule>},
      {"discarded-move", "assign back tensor moves whose result is discarded (x.to(d);)",
       createRule<DiscardedMoveRule>},
      {"host-access", "read device tensors from host code through .cpu(); report writes",
       createRule<HostAccessRule>},
      {"checkpoint-load", "move tensors filled by torch::load; report optimizer state loaded on the CPU",
       createRule<CheckpointLoadRule>},
      {"data-parallel", "with --data-parallel: run forward calls in loops on every GPU (data_parallel)",
       createRule<DataParallelRule>},
      {"distributed",
       "with --distributed: train data-parallel across processes on c10d (init, samplers, "
       "gradient averaging, saves on rank 0)",
       createRule<DistributedRule>},
      // Finishing steps: they run after the rules above, whatever --rules says.
      {"registry", "with --mode=registry: register placed variables with a todevice::Registry",
       createRule<RegistryRule>, /*FinishingStep=*/true},
      // Last: it declares the device the rules above used, once, if none was in scope.
      {"device-declaration", "declare the device once (CUDA when available, else the CPU)",
       createRule<DeviceDeclarationRule>, /*FinishingStep=*/true},
  };
  return Rules;
}

} // namespace to_device_migrate
