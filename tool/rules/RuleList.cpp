// The one list of rules, in the order they run (as a clang-tidy module adds
// its checks in one place). Insertions at one point keep the order of the
// rules that made them, so this order is part of the output. The finishing
// steps come last: they complete what the rules did, and always run.
#include "CheckpointLoadRule.h"
#include "DataLoaderBatchRule.h"
#include "DataParallelRule.h"
#include "DiscardedMoveRule.h"
#include "DistributedRule.h"
#include "HardcodedDeviceRule.h"
#include "HostAccessRule.h"
#include "HostBuiltTensorRule.h"
#include "HostMemoryTensorRule.h"
#include "LossPlacementRule.h"
#include "ModelPlacementRule.h"
#include "PerSampleCallRule.h"
#include "ReceivedTensorRule.h"
#include "TensorFactoryRule.h"
#include "finish/FinishingSteps.h"

namespace to_device_migrate {
namespace {

template <typename RuleT>
RuleInfo rule(const char *Name, const char *Summary, bool AlwaysRuns = false) {
  return {Name, Summary,
          [](llvm::StringRef N, MigrationContext &Ctx) -> std::unique_ptr<Rule> {
            return std::make_unique<RuleT>(N, Ctx);
          },
          AlwaysRuns};
}

} // namespace

const std::vector<RuleInfo> &registeredRules() {
  static const std::vector<RuleInfo> Rules = {
      rule<TensorFactoryRule>("tensor-factory",
                              "add the device to the options of torch::/at:: factory calls"),
      rule<HostMemoryTensorRule>(
          "host-memory-tensor", "move tensors built over host memory (from_blob) with .to(device), "
                                "and rows copied from host data once they are joined"),
      rule<HostBuiltTensorRule>(
          "host-built-tensor", "keep tensors host code fills on the CPU, and move them where "
                               "device code uses them"),
      rule<ModelPlacementRule>("model-placement",
                               "move every model to the device where it is complete: after its loads, before its first use"),
      rule<LossPlacementRule>(
          "loss-placement",
          "move every loss-function module to the device where it is complete"),
      rule<DataLoaderBatchRule>(
          "data-loader-batch",
          "move each batch's data and target once, at the top of the loop body"),
      rule<ReceivedTensorRule>("received-tensor",
                               "move tensors returned by code the tool cannot see (another file, a "
                               "dataset) where they are received"),
      rule<PerSampleCallRule>("per-sample-call",
                              "bring tensors handed to per-sample code (a dataset's or transform's "
                              "method) to the host, and move what it returns back to the device"),
      rule<HardcodedDeviceRule>("hardcoded-device",
                                "make hard-coded CUDA devices (.cuda(), torch::kCUDA) portable"),
      rule<DiscardedMoveRule>("discarded-move",
                              "assign back tensor moves whose result is discarded (x.to(d);)"),
      rule<HostAccessRule>("host-access",
                           "read device tensors from host code through .cpu(); report writes"),
      rule<CheckpointLoadRule>(
          "checkpoint-load",
          "move tensors filled by torch::load; report optimizer state loaded on the CPU"),
      rule<DataParallelRule>(
          "data-parallel",
          "with --data-parallel: run forward calls in loops on every GPU (data_parallel)"),
      rule<DistributedRule>("distributed",
                            "with --distributed: train data-parallel across processes on c10d "
                            "(init, samplers, gradient averaging, saves on rank 0)"),
      // The finishing steps: the registry first, then the device declaration,
      // last, since everything before it may use the device.
      rule<RegistryStep>(
          "registry", "with --mode=registry: register placed variables with a todevice::Registry",
          /*AlwaysRuns=*/true),
      rule<DeviceDeclarationStep>("device-declaration",
                                  "declare the device once (CUDA when available, else the CPU)",
                                  /*AlwaysRuns=*/true),
  };
  return Rules;
}

} // namespace to_device_migrate
