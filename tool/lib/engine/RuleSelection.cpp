// Which rules of the list (rules/RuleList.cpp) --rules selects.
#include "engine/Rule.h"

#include "llvm/Support/GlobPattern.h"

namespace to_device_migrate {

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
    if (Rule.AlwaysRuns)
      continue;
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
  return llvm::StringRef();
}

} // namespace to_device_migrate
