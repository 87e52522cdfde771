// The shape of every rewrite rule, after clang-tidy's ClangTidyCheck:
// registerMatchers() says what to find, check() handles one match,
// onEndOfFile() finishes what the matches started. A rule reports and edits
// only through diag(), with clang's FixItHints:
//   diag(Loc, "why not") << Site;                  a warning for the user
//   rewrite(Site, insertion(Offset, ".to(d)"));    a site placed on the device
// Whether a site may be changed (keep-cpu comments, macros, which file) is
// decided where diagnostics arrive (diagnostics/FindingConsumer.h), not here.
#pragma once

#include "engine/MigrationContext.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/Diagnostic.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace to_device_migrate {

class Rule : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  Rule(llvm::StringRef Name, MigrationContext &Ctx) : Name(Name.str()), Ctx(Ctx) {}

  /// Registers the AST matchers whose matches are passed to check().
  virtual void registerMatchers(clang::ast_matchers::MatchFinder *Finder) {}
  /// Reports and edits for one match.
  virtual void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) {}
  /// Called once per file after all matches, in the order of the rule list.
  virtual void onEndOfFile() {}

  llvm::StringRef name() const { return Name; }
  llvm::StringRef getID() const override { return Name; }
  void run(const clang::ast_matchers::MatchFinder::MatchResult &Result) final { check(Result); }

  /// A diagnostic of this rule at `Loc`: a warning or a note for the user, or,
  /// with fixes streamed in, an edit. Stream the site's range in too: the
  /// consumer's policy looks at it.
  clang::DiagnosticBuilder diag(clang::SourceLocation Loc, llvm::StringRef Message,
                                clang::DiagnosticIDs::Level Level = clang::DiagnosticIDs::Warning) const;
  /// A site placed on the device: a warning at `Fix` (what --check lists)
  /// saying so with the rule's summary, the site's range and the fix. An
  /// invalid `Site` is code of the tool's own (a helper it adds).
  clang::DiagnosticBuilder rewrite(clang::SourceRange Site, const clang::FixItHint &Fix) const;
  /// Code the placed sites need (the device declaration, an include): a remark
  /// at `Fix` with the rule's summary; keep-cpu comments do not stop it.
  clang::DiagnosticBuilder supportCode(const clang::FixItHint &Fix) const;

  /// Reports `Site` as placed by statements put right after `Place`'s
  /// statement (MigrationContext::placeOf()): `Statements(Indent)` gives them,
  /// each on a line of its own (`"\n" + Indent + "net->to(device);"`). The
  /// unbraced body of a control statement gets braces around it and them.
  void insertAfterStatement(clang::SourceRange Site, const MigrationContext::StatementPlace &Place,
                            llvm::function_ref<std::string(llvm::StringRef Indent)> Statements) const;

  /// Inserts `Text` at `Offset` of the migrated file (the context's geometry
  /// gives offsets: MigrationContext::offsetAfterToken(), ...).
  clang::FixItHint insertion(unsigned Offset, llvm::StringRef Text) const;
  /// Replaces the text between two offsets of the migrated file.
  clang::FixItHint replacement(unsigned Begin, unsigned End, llvm::StringRef Text) const;
  /// Replaces the text of a token range, as written in the file.
  clang::FixItHint replacement(clang::SourceRange TokenRange, llvm::StringRef Text) const;

protected:
  std::string Name;
  MigrationContext &Ctx;
};

/// A rule of the list: its name, its one-line summary, how to make it.
struct RuleInfo {
  std::string Name;
  std::string Summary;
  std::function<std::unique_ptr<Rule>(llvm::StringRef Name, MigrationContext &Ctx)> Create;
  /// A finishing step (the device declaration, the registry): runs whatever
  /// --rules says, since without it the rules' output would not compile.
  bool AlwaysRuns = false;
};

/// Every rule, in the order they run: the one list (rules/RuleList.cpp).
/// Insertions at one point keep the order of the rules that made them.
const std::vector<RuleInfo> &registeredRules();

/// The names of the rules `Globs` selects (comma-separated, clang-tidy style:
/// `-glob` removes, later globs win); finishing steps are not among them.
llvm::Expected<std::vector<std::string>> selectRules(llvm::StringRef Globs);

/// The summary of rule or finishing step `Name` (empty if there is no such one).
llvm::StringRef ruleSummary(llvm::StringRef Name);

} // namespace to_device_migrate
