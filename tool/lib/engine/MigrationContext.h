// What the rules of one file's run share, split by job: the file and its
// geometry (offsets, statements, blocks), the facts computed before matching
// (ParseFacts), the device plan (DevicePlan.h: which device variable a site
// uses, the declaration and includes to add), the registry plan
// (RegistryPlan.h, --mode=registry) and the diagnostics every rule reports
// and edits through (diagnostics/FindingConsumer.h).
#pragma once

#include "diagnostics/FindingConsumer.h"
#include "engine/DevicePlan.h"
#include "engine/RegistryPlan.h"
#include "facts/ParseFacts.h"
#include "facts/PerSampleCode.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace to_device_migrate {

struct MigrationOptions {
  /// Register CPU-resident variables with a todevice::Registry and move them
  /// with one call, instead of rewriting each site (--mode=registry).
  bool RegistryMode = false;
  /// Expression the inserted device declaration is initialised with; empty
  /// means `torch::cuda::is_available() ? torch::kCUDA : torch::kCPU`.
  std::string DeviceExpr;
  /// Run forward calls in training loops with data_parallel when several CUDA
  /// devices are present (--data-parallel).
  bool DataParallel = false;
  /// Train data-parallel across processes on c10d (--distributed): the
  /// distributed rule rewrites main(), loaders, steps and saves, and every
  /// model moved gets its parameters broadcast from rank 0.
  bool Distributed = false;
  /// Set when the file is a header migrated for the files that include it
  /// (--header-filter): names the tool declares at namespace scope start with
  /// it (`model_device` in model.h), so they cannot collide with the names
  /// the including file gets (`device`) in the same translation unit.
  std::string HeaderPrefix;
  /// True for a header (by absolute path) that this run migrates too
  /// (--header-filter): the functions it defines are placed like the main
  /// file's. Unset: only the main file is.
  std::function<bool(llvm::StringRef)> IsMigratedHeader;
  /// Print, at each factory, where the placement analysis (PlacementFlow.h)
  /// puts it beside what the rules decide (hidden --explain-placement: the
  /// two are compared over the corpus before the rules read the analysis).
  bool ExplainPlacement = false;
  /// The whole program's summary, from the run's first pass (ProgramSummary.h);
  /// null when the parse of the one file given is the whole program.
  std::shared_ptr<const ProgramSummary> Program;
};

/// An `#include` directive of the main file (its line ends at `LineEnd`).
struct IncludeLine {
  unsigned HashOffset = 0;
  unsigned LineEnd = 0; ///< offset of the first character after the line's newline
  /// The conditional blocks it is in (`#ifndef NDEBUG` ... `#endif`, an
  /// include guard): the offset of each `#if` and the end of its `#endif` line.
  std::vector<std::pair<unsigned, unsigned>> Conditionals;
};

class MigrationContext {
public:
  explicit MigrationContext(MigrationOptions Options)
      : Options(std::move(Options)), Device(*this), Registry(*this) {}

  /// Starts migrating `File` of the parsed translation unit: its main file, or
  /// a header it includes (--header-filter), whose fixes come from the parse
  /// of a file including it as clang-tidy's do, so the header need not be
  /// self-contained. `Includes` are `File`'s own #include lines.
  /// `Facts` are the parse's (they outlive the context).
  void startTranslationUnit(clang::ASTContext &Ast, clang::FileID File,
                            std::vector<IncludeLine> Includes, const ParseFacts &Facts);
  /// The findings of the file (FindingConsumer::takeResult()).
  FileResult finishTranslationUnit();

  clang::ASTContext &ast() const { return *Ast; }
  const clang::SourceManager &sources() const { return Ast->getSourceManager(); }
  const MigrationOptions &options() const { return Options; }
  const std::vector<IncludeLine> &includes() const { return Includes; }
  const std::string &filePath() const { return Path; }
  /// The file's text, as parsed.
  llvm::StringRef code() const { return sources().getBufferData(File); }
  /// The file this context migrates (see startTranslationUnit()).
  clang::FileID file() const { return File; }
  /// What the rules report and edit through (Rule::diag()).
  FileDiagnostics &diagnostics() { return *Diagnostics; }
  DevicePlan &device() { return Device; }
  RegistryPlan &registry() { return Registry; }

  // --- The file's geometry ---
  /// True if `Loc` is spelled in file() (not in a macro's body elsewhere).
  bool isWrittenInFile(clang::SourceLocation Loc) const;
  /// True if both ends of `Range` are written in file(), not by a macro.
  bool isWrittenInFile(clang::SourceRange Range) const;
  /// True if the expansion of `Loc` is in file().
  bool isExpansionInFile(clang::SourceLocation Loc) const;
  /// True if an end of `Range` was written by a macro's body (not passed as
  /// its argument): code the file cannot change without changing the macro.
  bool isInMacroBody(clang::SourceRange Range) const;
  /// Offset of `Loc` in the file.
  unsigned offsetOf(clang::SourceLocation Loc) const;
  /// Offset just past the token that starts at `Loc`.
  unsigned offsetAfterToken(clang::SourceLocation Loc) const;
  /// The location of `Offset` in the file.
  clang::SourceLocation locationAt(unsigned Offset) const;
  /// The start of the line where the file's top-level declaration holding
  /// `Offset` begins (where a new declaration can go before it); none if no
  /// top-level declaration holds it.
  std::optional<unsigned> topLevelDeclarationLineStart(unsigned Offset) const;
  /// The source text of a token range, as written.
  llvm::StringRef text(clang::SourceRange TokenRange) const;
  /// The whitespace that starts the line containing `Loc`.
  std::string indentationOf(clang::SourceLocation Loc) const;
  /// Where to put a new statement after `S`: the end of its line when only a
  /// comment follows it, else right after its `;`.
  unsigned offsetAfterStatement(const clang::Stmt &S) const;
  /// The declaration statement of a local `Var` and the block it sits directly
  /// in (where a statement can follow it); nulls when it is declared elsewhere,
  /// e.g. in a `for` or `if` condition.
  std::pair<const clang::DeclStmt *, const clang::CompoundStmt *>
  declarationInBlock(const clang::VarDecl &Var) const;
  /// The statement of a block that holds `S` (where a statement can go before
  /// or after it), and that block; nulls when `S` is not inside a block of a
  /// function (a member initialiser, a global's initialiser).
  std::pair<const clang::Stmt *, const clang::CompoundStmt *> statementInBlock(const clang::Stmt &S) const;

  /// Where statements can follow `S`: the full statement holding it and the
  /// block that statement sits directly in; or, when that statement is the
  /// unbraced body of an if/else/for/while/do (`if (c) net = Net();`), the
  /// body and its control statement, which braces must be added to (Rule::
  /// insertAfterStatement()). All null outside a function body.
  struct StatementPlace {
    const clang::Stmt *Statement = nullptr;
    const clang::CompoundStmt *Block = nullptr;
    const clang::Stmt *Control = nullptr;
  };
  StatementPlace placeOf(const clang::Stmt &S) const;
  StatementPlace placeOf(const clang::VarDecl &Var) const;

  // --- Facts computed before matching ---
  /// True if `Site` is code a data loader runs per sample (see PerSampleCode):
  /// it stays on the CPU, and the batch is moved instead.
  bool isPerSampleCode(const clang::Stmt &Site) {
    return Facts->perSample().contains(clang::DynTypedNode::create(Site));
  }
  bool isPerSampleCode(const clang::Decl &Site) {
    return Facts->perSample().contains(clang::DynTypedNode::create(Site));
  }
  /// True if `Loc` is in a file this run migrates: the main file, or a header
  /// that --header-filter selects.
  bool isMigratedInThisRun(clang::SourceLocation Loc) const;
  /// The per-sample analysis of the parse.
  const PerSampleCode &perSample() const { return Facts->perSample(); }
  /// What is known of the whole parse (ParseFacts.h).
  const ParseFacts &facts() const { return *Facts; }

private:
  MigrationOptions Options;
  clang::ASTContext *Ast = nullptr;
  clang::FileID File;
  std::string Path;
  std::vector<IncludeLine> Includes;
  const ParseFacts *Facts = nullptr;
  std::optional<FileDiagnostics> Diagnostics;
  DevicePlan Device;
  RegistryPlan Registry;
};

} // namespace to_device_migrate
