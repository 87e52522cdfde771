// Runs the enabled rules over every file a ClangTool parses and keeps what
// each file produced. Knows nothing about output: the driver writes results.
#pragma once

#include "MigrationContext.h"

#include "clang/Tooling/Tooling.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace to_device_migrate {

class Migrator {
public:
  /// `RuleNames` selects registered rules; empty means all of them. The
  /// finishing steps always run after them.
  explicit Migrator(MigrationOptions Options, std::vector<std::string> RuleNames = {})
      : Options(std::move(Options)), RuleNames(std::move(RuleNames)) {}

  /// An action factory for ClangTool::run().
  std::unique_ptr<clang::tooling::FrontendActionFactory> newActionFactory();

  /// Results of files that parsed, in the order they finished.
  const std::vector<FileResult> &results() const { return Results; }
  /// Files that did not parse (clang has printed why).
  const std::vector<std::string> &failures() const { return Failures; }

  // Called by the AST consumer.
  void migrate(clang::ASTContext &Ast, std::vector<clang::Decl *> MainFileDecls,
               std::vector<IncludeLine> Includes, std::vector<std::string> UserIncludes);
  void fail(std::string Path);

private:
  MigrationOptions Options;
  std::vector<std::string> RuleNames;
  std::mutex Lock;
  std::vector<FileResult> Results;
  std::vector<std::string> Failures;
};

} // namespace to_device_migrate
