// The shape of every rewrite rule, after clang-tidy's checks: registerMatchers()
// says what to find, check() records what to do into the MigrationContext.
#pragma once

#include "MigrationContext.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/Support/Registry.h"

#include <memory>
#include <string>
#include <vector>

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

/// Makes the rules of one kind. Each rule registers its factory from its own
/// source file (as clang-tidy's modules register their checks), so adding a
/// rule touches only its own files:
///   static RuleRegistry::Add<RuleFactoryFor<TensorFactoryRule, 10>>
///       Registration("tensor-factory", "add the device to the options of ...");
/// The registry's name and description are the rule's name and summary.
class RuleFactory {
public:
  virtual ~RuleFactory() = default;
  virtual std::unique_ptr<Rule> create(llvm::StringRef Name, MigrationContext &Ctx) const = 0;
  /// Where the rule runs among the others (lowest first). Insertions at one
  /// point keep the order of the rules that made them, so the output must not
  /// depend on the order in which static initialisers happened to register them.
  virtual int order() const = 0;
};

template <typename RuleT, int Order> class RuleFactoryFor final : public RuleFactory {
public:
  std::unique_ptr<Rule> create(llvm::StringRef Name, MigrationContext &Ctx) const override {
    return std::make_unique<RuleT>(Name, Ctx);
  }
  int order() const override { return Order; }
};

using RuleRegistry = llvm::Registry<RuleFactory>;

/// A registered rule.
struct RuleInfo {
  std::string Name;
  std::string Summary;
  std::unique_ptr<RuleFactory> Factory;
};

/// Every registered rule, in the order they run.
const std::vector<RuleInfo> &registeredRules();

/// The names of the rules `Globs` selects (comma-separated, clang-tidy style:
/// `-glob` removes, later globs win).
llvm::Expected<std::vector<std::string>> selectRules(llvm::StringRef Globs);

/// The summary of rule or finishing step `Name` (empty if there is no such one).
llvm::StringRef ruleSummary(llvm::StringRef Name);

} // namespace to_device_migrate
