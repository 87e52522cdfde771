// Runs the enabled rules over every file a ClangTool parses and keeps what
// each file produced: the main file, then each header it includes that
// --header-filter selects (MigrationOptions::IsMigratedHeader), migrated from
// this same parse as clang-tidy fixes headers. Knows nothing about output:
// the driver writes results.
#pragma once

#include "engine/MigrationContext.h"

#include "clang/Tooling/Tooling.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace to_device_migrate {

/// What the first pass of a run learns from one parse (ProgramSummary.h).
struct ParseAnalysis {
  TranslationUnitSummary Summary;
  /// The user's files the parse read (the main file and the headers it
  /// includes from user directories, not system ones), by absolute path:
  /// the summary is valid as long as they are unchanged.
  std::vector<std::string> UserFiles;
};

class Migrator {
public:
  /// `RuleNames` selects registered rules; empty means all of them. The
  /// finishing steps always run after them. With `AnalyseOnly` (the run's
  /// first pass) nothing is migrated: analyses() holds what each parse told.
  explicit Migrator(MigrationOptions Options, std::vector<std::string> RuleNames = {},
                    bool AnalyseOnly = false)
      : Options(std::move(Options)), RuleNames(std::move(RuleNames)), AnalyseOnly(AnalyseOnly) {}

  /// An action factory for ClangTool::run().
  std::unique_ptr<clang::tooling::FrontendActionFactory> newActionFactory();

  /// Results of files that parsed, in the order they finished: each main file
  /// followed by the headers migrated from its parse.
  const std::vector<FileResult> &results() const { return Results; }
  /// Files that did not parse (clang has printed why).
  const std::vector<std::string> &failures() const { return Failures; }
  /// With AnalyseOnly: what each parse told, in the order they finished.
  const std::vector<ParseAnalysis> &analyses() const { return Analyses; }

  /// What the AST consumer saw of one file of the translation unit.
  struct FileParts {
    std::vector<clang::Decl *> TopLevelDecls;
    std::vector<IncludeLine> Includes;
    /// Its conditional blocks: the offset of each `#if`/`#ifdef`/`#ifndef` and
    /// the end of its `#endif` line.
    std::vector<std::pair<unsigned, unsigned>> Conditionals;
  };
  // Called by the AST consumer. `Headers` are the selected headers' parts, in
  // the order they were first included.
  void migrate(clang::ASTContext &Ast, FileParts Main,
               std::vector<std::pair<clang::FileID, FileParts>> Headers,
               std::vector<std::string> UserFiles);
  void fail(std::string Path);

private:
  FileResult migrateFile(clang::ASTContext &Ast, clang::FileID File, FileParts Parts,
                         MigrationOptions Options, const ParseFacts &Facts);

  MigrationOptions Options;
  std::vector<std::string> RuleNames;
  bool AnalyseOnly = false;
  std::mutex Lock;
  std::vector<FileResult> Results;
  std::vector<std::string> Failures;
  std::vector<ParseAnalysis> Analyses;
};

} // namespace to_device_migrate
