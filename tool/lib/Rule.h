// The shape of every rewrite rule, after clang-tidy's checks: registerMatchers()
// says what to find, check() records what to do into the MigrationContext.
#pragma once

#include "MigrationContext.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <memory>

namespace to_device_migrate {

class Rule : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  Rule(llvm::StringRef Name, MigrationContext &Ctx) : Name(Name.str()), Ctx(Ctx) {}

  /// Registers the AST matchers whose matches are passed to check().
  virtual void registerMatchers(clang::ast_matchers::MatchFinder &Finder) = 0;
  /// Records edits and findings for one match.
  virtual void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) {}
  /// Called once per file after all matches (in registry order).
  virtual void finishFile() {}

  llvm::StringRef name() const { return Name; }
  llvm::StringRef getID() const override { return Name; }
  void run(const clang::ast_matchers::MatchFinder::MatchResult &Result) final { check(Result); }

protected:
  std::string Name;
  MigrationContext &Ctx;
};

/// One entry of the rule registry (tool/rules/RuleRegistry.cpp).
struct RuleInfo {
  const char *Name;
  const char *Summary;
  std::unique_ptr<Rule> (*Create)(llvm::StringRef Name, MigrationContext &Ctx);
  /// A step that completes what the rules did (declaring the device they use,
  /// emitting the registry they filled): it always runs, whatever --rules says,
  /// since without it their output would not compile.
  bool FinishingStep = false;
};

template <typename RuleT>
std::unique_ptr<Rule> createRule(llvm::StringRef Name, MigrationContext &Ctx) {
  return std::make_unique<RuleT>(Name, Ctx);
}

/// Every rule, in the order their end-of-file steps run.
llvm::ArrayRef<RuleInfo> allRules();

/// The names of the rules `Globs` selects (comma-separated, clang-tidy style:
/// `-glob` removes, later globs win), and every finishing step.
llvm::Expected<std::vector<std::string>> selectRules(llvm::StringRef Globs);

/// True for the name of a finishing step (see RuleInfo::FinishingStep).
bool isFinishingStep(llvm::StringRef Name);

/// The summary of rule `Name` (empty if there is no such rule).
llvm::StringRef ruleSummary(llvm::StringRef Name);

} // namespace to_device_migrate
