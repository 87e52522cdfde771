// Per-file state shared by the rules: the AST, the edit set, the findings,
// and the answer to "which device variable do I use here?".
#pragma once

#include "DeviceScope.h"
#include "Finding.h"
#include "ParseFacts.h"
#include "PerSampleCode.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"

#include <functional>
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
};

/// An `#include` directive of the main file (its line ends at `LineEnd`).
struct IncludeLine {
  unsigned HashOffset = 0;
  unsigned LineEnd = 0; ///< offset of the first character after the line's newline
};

/// A variable the registry mode registers instead of rewriting its site.
struct Registration {
  const clang::VarDecl *Var = nullptr;
  const clang::DeclStmt *Declaration = nullptr;
  const clang::CompoundStmt *FunctionBody = nullptr;
};

class MigrationContext {
public:
  explicit MigrationContext(MigrationOptions Options) : Options(std::move(Options)) {}

  /// Starts migrating `File` of the parsed translation unit: its main file, or
  /// a header it includes (--header-filter), whose fixes come from the parse
  /// of a file including it as clang-tidy's do, so the header need not be
  /// self-contained. `Includes` are `File`'s own #include lines.
  /// `Facts` are the parse's (they outlive the context).
  void startTranslationUnit(clang::ASTContext &Ast, clang::FileID File,
                            std::vector<IncludeLine> Includes, const ParseFacts &Facts);
  FileResult finishTranslationUnit();

  clang::ASTContext &ast() const { return *Ast; }
  const clang::SourceManager &sources() const { return Ast->getSourceManager(); }
  const MigrationOptions &options() const { return Options; }
  const std::vector<IncludeLine> &includes() const { return Includes; }
  const std::string &filePath() const { return Result.Path; }
  /// The file this context migrates (see startTranslationUnit()).
  clang::FileID file() const { return File; }
  /// True if `Loc` is spelled in file() (not in a macro's body elsewhere).
  bool isWrittenInFile(clang::SourceLocation Loc) const;
  /// True if the expansion of `Loc` is in file().
  bool isExpansionInFile(clang::SourceLocation Loc) const;

  // --- Edits: positions must be in file() and outside macros. ---
  /// True if both ends of `Range` are spelled in file(), not by a macro.
  bool isRewritable(clang::SourceRange Range) const;
  /// isRewritable(), and when the site comes from a macro used in the main file,
  /// also a warning that it is left for a hand edit (macro bodies are never changed).
  bool rewritableOrReported(clang::SourceRange Range, llvm::StringRef Rule);
  /// Offset of `Loc` in the main file.
  unsigned offsetOf(clang::SourceLocation Loc) const;
  /// Offset just past the token that starts at `Loc`.
  unsigned offsetAfterToken(clang::SourceLocation Loc) const;
  /// Edits a site. Nothing is recorded on a line marked keep-cpu (see isKeptOnCpu).
  void insert(unsigned Offset, llvm::StringRef Text, llvm::StringRef Rule);
  /// Inserts code the migrated sites need, not a site of its own (the device
  /// declaration, the registry's set-up): recorded wherever it goes.
  void insertSupportCode(unsigned Offset, llvm::StringRef Text, llvm::StringRef Rule);
  void replace(clang::SourceRange TokenRange, llvm::StringRef Text, llvm::StringRef Rule);
  /// The start of the line where the main file's top-level declaration holding
  /// `Offset` begins (where a new declaration can go before it); none if no
  /// top-level declaration holds it.
  std::optional<unsigned> topLevelDeclarationLineStart(unsigned Offset) const;
  /// `Text` with the main file's line endings (CRLF or LF).
  std::string withFileNewlines(llvm::StringRef Text) const;
  /// Adds edits in the form a Clang Transformer rule produces them.
  void addReplacement(const clang::tooling::Replacement &R, llvm::StringRef Rule);
  /// The source text of a token range, as written.
  llvm::StringRef text(clang::SourceRange TokenRange) const;
  /// The whitespace that starts the line containing `Loc`.
  std::string indentationOf(clang::SourceLocation Loc) const;
  /// Where to put a new statement after `S`: the end of its line when only a
  /// comment follows it, else right after its `;`.
  unsigned offsetAfterStatement(const clang::Stmt &S) const;

  /// True if the user asked to keep the site at `Loc` on the CPU with a
  /// `// to-device: keep-cpu` comment on its line, or
  /// `// to-device: keep-cpu-next-line` on the line before.
  bool isKeptOnCpu(clang::SourceLocation Loc) const;
  /// isKeptOnCpu() for an offset in the main file.
  bool isKeptOnCpuAt(unsigned Offset) const;

  /// The guard every rule asks before it rewrites a site spanning `Range`:
  /// rewritableOrReported() (the macro policy) and not isKeptOnCpu().
  bool mayRewrite(clang::SourceRange Range, llvm::StringRef Rule);

  void report(clang::SourceLocation Loc, Finding::Level Level, llvm::StringRef Message,
              llvm::StringRef Rule);

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

  /// The declaration statement of a local `Var` and the block it sits directly
  /// in (where a statement can follow it); nulls when it is declared elsewhere,
  /// e.g. in a `for` or `if` condition.
  std::pair<const clang::DeclStmt *, const clang::CompoundStmt *>
  declarationInBlock(const clang::VarDecl &Var) const;
  /// The statement of a block that holds `S` (where a statement can go before
  /// or after it), and that block; nulls when `S` is not inside a block of a
  /// function (a member initialiser, a global's initialiser).
  std::pair<const clang::Stmt *, const clang::CompoundStmt *> statementInBlock(const clang::Stmt &S) const;

  // --- Registry mode ---
  /// In registry mode, takes over placing `Var` when it is declared directly in
  /// a function's body (the registry lives as long as the function's variables):
  /// returns true, and the calling rule records no edit of its own.
  bool registerInstead(const clang::VarDecl &Var);
  /// Same, for a call that is the whole initialiser of a variable.
  bool registerInstead(const clang::Expr &Initializer);
  const std::vector<Registration> &registrations() const { return Registrations; }
  /// Asks for `#include <Header>` (inserted once, by device-declaration).
  void requireInclude(llvm::StringRef Header) {
    if (!llvm::is_contained(RequiredIncludes, Header))
      RequiredIncludes.push_back(Header.str());
  }
  /// Asks for `#include <todevice/todevice.h>`.
  void requireRuntimeInclude() { requireInclude("todevice/todevice.h"); }
  const std::vector<std::string> &requiredIncludes() const { return RequiredIncludes; }

  // --- The device ---
  /// The device variable to use at `Site`: a `torch::Device` declared in scope
  /// before it (local, parameter or global) or the one the tool will insert.
  std::string deviceAt(const clang::Stmt &Site);
  /// Same, for a site that is a declaration (e.g. a model variable).
  std::string deviceAt(const clang::Decl &Site);
  /// A name for a new variable that collides with nothing in the file nor
  /// with any name the tool introduced before (see FileScope::freshName()).
  std::string freshName(llvm::StringRef Preferred, llvm::StringRef Fallback);
  /// freshName() for a declaration at namespace scope: prefixed in a header
  /// (see MigrationOptions::HeaderPrefix).
  std::string freshTopLevelName(llvm::StringRef Preferred, llvm::StringRef Fallback);

  /// The expression that chooses the device: --device-expr, or CUDA when
  /// available else the CPU. One that uses the runtime asks for its include.
  std::string deviceExpression();
  /// The namespace spelling for inserted code: "torch", or "at" in ATen-only files.
  llvm::StringRef torchNamespace() const { return TorchNamespace; }

  /// The inserted declaration's name and the earliest offset that uses it, if
  /// any site needs it (for the device-declaration step).
  std::optional<std::pair<std::string, unsigned>> insertedDeviceUse() const;

private:
  void addEdit(unsigned Offset, unsigned Length, llvm::StringRef Text, llvm::StringRef Rule);
  /// Records an edit as a finding of its own, unless one makes the same change.
  void recordEdit(Finding::Level Kind, unsigned Offset, unsigned Length, llvm::StringRef Text,
                  llvm::StringRef Rule);
  std::string deviceAt(const clang::DynTypedNode &Site, clang::SourceLocation SiteLoc);
  std::string deviceForInsertedDeclaration(clang::SourceLocation Site);
  /// The main file's declarations, collected on first use.
  FileScope &scope();

  MigrationOptions Options;
  clang::ASTContext *Ast = nullptr;
  clang::FileID File;
  std::vector<IncludeLine> Includes;
  FileResult Result;
  std::string TorchNamespace = "torch";
  std::vector<Registration> Registrations;
  std::vector<std::string> RequiredIncludes;
  std::optional<FileScope> Scope;
  const ParseFacts *Facts = nullptr;
  std::string InsertedDeviceName;  ///< chosen on first need
  unsigned FirstInsertedDeviceUse = ~0u;
};

} // namespace to_device_migrate
