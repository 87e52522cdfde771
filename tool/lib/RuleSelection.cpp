// What runs: the registered rules (in their declared order), which of them
// --rules selects, and the finishing steps that always follow them.
#include "FinishingSteps.h"
#include "Rule.h"

#include "llvm/Support/GlobPattern.h"

#include <algorithm>

LLVM_INSTANTIATE_REGISTRY(to_device_migrate::RuleRegistry)

namespace to_device_migrate {

const std::vector<RuleInfo> &registeredRules() {
  static const std::vector<RuleInfo> Rules = [] {
    std::vector<RuleInfo> All;
    for (const RuleRegistry::entry &Entry : RuleRegistry::entries())
      All.push_back({Entry.getName().str(), Entry.getDesc().str(), Entry.instantiate()});
    // By order, then name: two rules given the same place still run in one
    // order on every build, whatever order their initialisers ran in.
    std::sort(All.begin(), All.end(), [](const RuleInfo &A, const RuleInfo &B) {
      return std::make_pair(A.Factory->order(), llvm::StringRef(A.Name)) <
             std::make_pair(B.Factory->order(), llvm::StringRef(B.Name));
    });
    return All;
  }();
  return Rules;
}

llvm::ArrayRef<FinishingStep> finishingSteps() {
  static const FinishingStep Steps[] = {
      {"registry", "with --mode=registry: register placed variables with a todevice::Registry",
       emitRegistries},
      {"device-declaration", "declare the device once (CUDA when available, else the CPU)",
       declareDevice},
  };
  return Steps;
}

llvm::Expected<std::vector<std::string>> selectRules(llvm::StringRef Globs) {
  std::vector<std::pair<llvm::GlobPattern, bool>> Patterns;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Globs.split(Parts, ',', -1, false);
  for (llvm::StringRef Part : Parts) {
    Part = Part.trim();
    bool Remove = Part.consume_front("-");
    auto Pattern = llvm::GlobPattern::create(Part);
    if (!Pattern)
      return Pattern.takeError();
    Patterns.emplace_back(std::move(*Pattern), !Remove);
  }
  std::vector<std::string> Selected;
  for (const RuleInfo &Rule : registeredRules()) {
    bool Enabled = false;
    for (const auto &[Pattern, Include] : Patterns)
      if (Pattern.match(Rule.Name))
        Enabled = Include;
    if (Enabled)
      Selected.push_back(Rule.Name);
  }
  return Selected;
}

llvm::StringRef ruleSummary(llvm::StringRef Name) {
  for (const RuleInfo &Rule : registeredRules())
    if (Name == Rule.Name)
      return Rule.Summary;
  for (const FinishingStep &Step : finishingSteps())
    if (Name == Step.Name)
      return Step.Summary;
  return llvm::StringRef();
}

} // namespace to_device_migrate
