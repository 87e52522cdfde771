#include "output/RewriteCheck.h"
#include "output/FunctionBodies.h"
#include "facts/HostWrites.h"
#include "facts/Matchers.h"
#include "facts/SourceLines.h"
#include "compat/LlvmCompat.h"
#include "parse/LibraryInstantiations.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Sema/SemaConsumer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <map>
#include <optional>

namespace to_device_migrate {
namespace {

/// `File` as the rewritten files are keyed: absolute (from `Directory`), no dots.
std::string normalisedPath(llvm::StringRef File, llvm::StringRef Directory) {
  llvm::SmallString<256> Path(File);
  compat::makeAbsolute(Directory, Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return Path.str().str();
}

/// A rewritten file: its original text, the edits and the new text (FileResult::Rewrite, Migrated).
struct Rewritten {
  const FileResult *Result = nullptr;
  const clang::tooling::Replacements &Replaces;
  const std::string &Text;

  /// Where `NewOffset` of the new text comes from in the original text, and
  /// whether it lies in text an edit wrote (then the offset is the edit's).
  std::pair<unsigned, bool> origin(unsigned NewOffset) const {
    std::pair<unsigned, bool> Found;
    const long Shift = walkEdits([&](const clang::tooling::Replacement &R, unsigned NewStart) {
      if (NewOffset < NewStart)
        return true;
      if (NewOffset < NewStart + R.getReplacementText().size()) {
        Found = {R.getOffset(), true};
        return true;
      }
      return false;
    });
    return Found.second ? Found : std::make_pair(static_cast<unsigned>(NewOffset - Shift), false);
  }
  unsigned originalOffset(unsigned NewOffset) const { return origin(NewOffset).first; }
  /// Whether an edit wrote or deleted text in [NewBegin, NewEnd] of the new text.
  bool isEditedBetween(unsigned NewBegin, unsigned NewEnd) const {
    bool Edited = false;
    walkEdits([&](const clang::tooling::Replacement &R, unsigned NewStart) {
      if (NewStart > NewEnd)
        return true;
      Edited = NewStart + R.getReplacementText().size() >= NewBegin;
      return Edited;
    });
    return Edited;
  }
  bool isInserted(unsigned NewOffset) const { return origin(NewOffset).second; }

  /// Calls `Visit(R, NewStart)` for the edits in order, with where each
  /// starts in the new text, until it returns true; returns how much the
  /// edits visited and passed have lengthened the text.
  template <typename Visitor> long walkEdits(Visitor Visit) const {
    long Shift = 0;
    for (const clang::tooling::Replacement &R : Replaces) {
      if (Visit(R, static_cast<unsigned>(R.getOffset() + Shift)))
        break;
      Shift += static_cast<long>(R.getReplacementText().size()) - R.getLength();
    }
    return Shift;
  }

  /// The rules whose edits the original line holding `Offset` carries.
  std::vector<std::string> rulesOnLineOf(unsigned Offset) const {
    const unsigned Line = lineAndColumn(Result->Original, Offset).first;
    std::vector<std::string> Rules;
    for (const Finding &F : Result->Findings)
      if (const clang::tooling::Replacements *Fixes = F.isEdit() ? F.fixes() : nullptr)
        for (const clang::tooling::Replacement &Fix : *Fixes)
          if (lineAndColumn(Result->Original, Fix.getOffset()).first == Line &&
              !llvm::is_contained(Rules, F.rule()))
            Rules.push_back(F.rule());
    return Rules;
  }
};

/// Keeps the errors (with their file offsets) while the parse's SourceManager lives.
class ErrorCollector : public clang::DiagnosticConsumer {
public:
  struct Collected {
    std::string File; ///< as clang opened it
    unsigned Offset = 0;
    unsigned Line = 0, Column = 0;
    std::string Message;
  };
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < clang::DiagnosticsEngine::Error || Errors.size() >= 5)
      return;
    Collected Error;
    llvm::SmallString<256> Text;
    Info.FormatDiagnostic(Text);
    Error.Message = Text.str().str();
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const clang::SourceManager &SM = Info.getSourceManager();
      clang::SourceLocation Loc = SM.getExpansionLoc(Info.getLocation());
      Error.File = compat::fileName(SM, SM.getFileID(Loc));
      Error.Offset = SM.getFileOffset(Loc);
      Error.Line = SM.getSpellingLineNumber(Loc);
      Error.Column = SM.getSpellingColumnNumber(Loc);
    }
    Errors.push_back(std::move(Error));
  }
  std::vector<Collected> Errors;
};

/// The tool's own assertion that it never redirects a write to a copy
/// (shared/mission.md, section 6): in the rewritten translation unit, no host
/// copy the tool inserted (`auto t_host = t.cpu();`) is written through its
/// pointer or accessor. One that is would make the program silently wrong on
/// a GPU; it is reported as an internal error and the file is not written.
class CopyWriteCheck : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  CopyWriteCheck(const std::map<std::string, Rewritten> &Files, llvm::StringRef Directory)
      : Files(Files), Directory(Directory) {}

  void run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override {
    const auto *Access = Result.Nodes.getNodeAs<clang::CXXMemberCallExpr>("access");
    const clang::ValueDecl *Viewed = viewedTensor(*Result.Nodes.getNodeAs<clang::Expr>("object"));
    const auto *Copy = llvm::dyn_cast_or_null<clang::VarDecl>(Viewed);
    const auto *Init = Copy && Copy->getInit()
                           ? llvm::dyn_cast<clang::CXXMemberCallExpr>(ignoreConversions(Copy->getInit()))
                           : nullptr;
    if (!Init || !Init->getMethodDecl() || Init->getMethodDecl()->getName() != "cpu" ||
        !isWriteAccess(*Result.Context, *Access) || isLastUseOfItsTensor(*Result.Context, *Access, *Init))
      return;
    const clang::SourceManager &SM = *Result.SourceManager;
    const clang::SourceLocation Declared = SM.getExpansionLoc(Copy->getLocation());
    auto Changed = Files.find(normalisedPath(compat::fileName(SM, SM.getFileID(Declared)), Directory));
    if (Changed == Files.end() || !Changed->second.isInserted(SM.getFileOffset(Declared)))
      return;
    const clang::SourceLocation Written = SM.getExpansionLoc(Access->getBeginLoc());
    if (!Reported.insert(Written).second)
      return;
    RewriteError Error;
    Error.File = Changed->first;
    std::tie(Error.Line, Error.Column) = lineAndColumn(
        Changed->second.Result->Original,
        Changed->second.originalOffset(SM.getFileOffset(Written)));
    Error.Message = "internal error: host code would write into '" + Copy->getName().str() +
                    "', a .cpu() copy this run inserted: on a GPU the write would be lost";
    Error.Internal = true;
    Error.Rules = {"host-access"};
    Errors.push_back(std::move(Error));
  }

  std::vector<RewriteError> Errors;

private:
  /// Is the copy's tensor (`t` of `t.cpu()`) read no more after the statement
  /// of `Access`? Then the copy may take the write (isDeadAfterHostWrite()).
  static bool isLastUseOfItsTensor(clang::ASTContext &Ast, const clang::Expr &Access,
                                   const clang::CXXMemberCallExpr &CopyInit) {
    const auto *Original =
        llvm::dyn_cast_or_null<clang::VarDecl>(viewedTensor(*CopyInit.getImplicitObjectArgument()));
    // The statement of the block that holds the access (through a declaration's
    // initialiser too).
    clang::DynTypedNode Node = clang::DynTypedNode::create(Access);
    while (true) {
      clang::DynTypedNodeList Parents = Ast.getParents(Node);
      if (Parents.empty())
        return false;
      if (Parents[0].get<clang::CompoundStmt>())
        break;
      Node = Parents[0];
    }
    const auto *Statement = Node.get<clang::Stmt>();
    return Original && Statement && isDeadAfterHostWrite(Ast, *Statement, *Original);
  }

  const std::map<std::string, Rewritten> &Files;
  llvm::StringRef Directory;
  llvm::DenseSet<clang::SourceLocation> Reported;
};

/// Runs CopyWriteCheck over the rewritten files' own declarations only:
/// matching inside <torch/torch.h> (the precompiled header) would cost more
/// than the parse itself. Instantiates the libraries' templates only where
/// an edit uses them (LibraryInstantiations.h).
class CopyWriteConsumer : public clang::SemaConsumer {
public:
  CopyWriteConsumer(CopyWriteCheck &Check, const std::map<std::string, Rewritten> &Files,
                    llvm::StringRef Directory)
      : Files(Files), Directory(Directory) {
    namespace m = clang::ast_matchers;
    Finder.addMatcher(
        m::cxxMemberCallExpr(m::callee(m::cxxMethodDecl(isHostMemoryAccessMethod())),
                             m::on(m::expr().bind("object")))
            .bind("access"),
        &Check);
  }

  void InitializeSema(clang::Sema &S) override { Sema = &S; }
  void ForgetSema() override { Sema = nullptr; }

  bool HandleTopLevelDecl(clang::DeclGroupRef Group) override {
    for (clang::Decl *D : Group) {
      const clang::SourceManager &SM = D->getASTContext().getSourceManager();
      if (rewritten(SM, SM.getFileID(SM.getExpansionLoc(D->getLocation()))))
        Decls.push_back(D);
    }
    if (Sema)
      Instantiations.drop(*Sema);
    return true;
  }

  /// Only what the migration changed is parsed again: the body of a function
  /// no edit touched compiled before, and edits outside it only add (moves,
  /// options, declarations under fresh names: none changes a declaration
  /// such a body uses), so clang skips it (-skip-function-bodies, asked per
  /// function; clang itself keeps constexpr bodies and those whose return
  /// type is deduced). In a program of many functions, most of the check.
  bool shouldSkipFunctionBody(clang::Decl *D) override {
    if (!Sema || !D->getLocation().isFileID()) // a function a macro declares
      return false;
    const clang::SourceManager &SM = Sema->getSourceManager();
    const clang::FileID File = SM.getFileID(D->getLocation());
    bool Invalid = false;
    const llvm::StringRef Text = SM.getBufferData(File, &Invalid);
    if (Invalid)
      return false;
    const unsigned Name = SM.getFileOffset(D->getLocation());
    const std::optional<unsigned> End = functionBodyEnd(Text, Name, Sema->getLangOpts());
    const Rewritten *Changed = rewritten(SM, File);
    return End && (!Changed || !Changed->isEditedBetween(Name, *End));
  }

  void HandleTranslationUnit(clang::ASTContext &Ast) override {
    if (Decls.empty())
      return;
    Ast.setTraversalScope(Decls);
    Finder.matchAST(Ast);
  }

private:
  /// True if `Point` lies in text an edit of this run wrote.
  bool isEdited(clang::SourceLocation Point) {
    const clang::SourceManager &SM = Sema->getSourceManager();
    const clang::SourceLocation Loc = SM.getExpansionLoc(Point);
    const Rewritten *Changed = rewritten(SM, SM.getFileID(Loc));
    return Changed && Changed->isInserted(SM.getFileOffset(Loc));
  }

  /// The rewritten file `File` is, or null: looked up once per file.
  const Rewritten *rewritten(const clang::SourceManager &SM, clang::FileID File) {
    if (File.isInvalid()) // an implicit declaration; FileID() is DenseMap's empty key
      return nullptr;
    auto [Known, New] = RewrittenFiles.try_emplace(File, nullptr);
    if (New) {
      const std::string Name = compat::fileName(SM, File);
      auto Found = Name.empty() ? Files.end() : Files.find(normalisedPath(Name, Directory));
      Known->second = Found == Files.end() ? nullptr : &Found->second;
    }
    return Known->second;
  }

  const std::map<std::string, Rewritten> &Files;
  llvm::StringRef Directory;
  llvm::DenseMap<clang::FileID, const Rewritten *> RewrittenFiles; ///< by file, as first asked
  std::vector<clang::Decl *> Decls;
  clang::ast_matchers::MatchFinder Finder;
  clang::Sema *Sema = nullptr;
  LibraryInstantiations Instantiations{[this](clang::SourceLocation Point) { return isEdited(Point); }};
};

/// What newFrontendActionFactory() asks for a consumer of each parse.
struct CopyWriteConsumers {
  CopyWriteCheck &Check;
  const std::map<std::string, Rewritten> &Files;
  llvm::StringRef Directory;
  std::unique_ptr<clang::ASTConsumer> newASTConsumer() {
    return std::make_unique<CopyWriteConsumer>(Check, Files, Directory);
  }
};

} // namespace

std::vector<RewriteError> checkRewritesCompile(const clang::tooling::CompilationDatabase &Database,
                                               const std::string &MainFile,
                                               llvm::StringRef Directory,
                                               llvm::ArrayRef<clang::tooling::ArgumentsAdjuster> Flags,
                                               llvm::ArrayRef<FileOutcome> Outcomes) {
  // Each file as it will be written, from the one text made for it (Formatting.h).
  std::map<std::string, Rewritten> Files;
  bool RulesEdited = false;
  for (const FileOutcome &Outcome : Outcomes) {
    if (!Outcome.Result || Outcome.Result->Migrated == Outcome.Result->Original)
      continue;
    RulesEdited |= Outcome.Result->editCount() > 0;
    llvm::SmallString<256> Path(Outcome.Result->Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    Files.emplace(Path.str().str(), Rewritten{&*Outcome.Result, Outcome.Result->Rewrite,
                                              Outcome.Result->Migrated});
  }
  if (!RulesEdited) // comments alone (--comments) change no code
    return {};
  clang::tooling::ClangTool Tool(Database, {MainFile},
                                 std::make_shared<clang::PCHContainerOperations>(),
                                 llvm::vfs::createPhysicalFileSystem());
  for (const clang::tooling::ArgumentsAdjuster &Adjuster : Flags)
    Tool.appendArgumentsAdjuster(Adjuster);
  // The errors are the tool's to report: no "N errors generated." (printed only
  // with carets on) nor ClangTool's "Error while processing".
  Tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
      "-fno-caret-diagnostics", clang::tooling::ArgumentInsertPosition::BEGIN));
  // The bodies no edit touched are skipped (CopyWriteConsumer::shouldSkipFunctionBody).
  Tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
      {"-Xclang", "-skip-function-bodies"}, clang::tooling::ArgumentInsertPosition::BEGIN));
  Tool.setPrintErrorMessage(false);
  for (const auto &[Path, File] : Files)
    Tool.mapVirtualFile(Path, File.Text);
  ErrorCollector Collector;
  Tool.setDiagnosticConsumer(&Collector);
  CopyWriteCheck CopyWrites(Files, Directory);
  CopyWriteConsumers Consumers{CopyWrites, Files, Directory};
  Tool.run(clang::tooling::newFrontendActionFactory(&Consumers).get());

  std::vector<RewriteError> Errors;
  for (const ErrorCollector::Collected &Found : Collector.Errors) {
    RewriteError Error;
    Error.File = normalisedPath(Found.File.empty() ? MainFile : Found.File, Directory);
    Error.Line = Found.Line;
    Error.Column = Found.Column;
    Error.Message = Found.Message;
    auto Changed = Files.find(Error.File);
    if (Changed != Files.end()) {
      // Where the user finds it: the original file's line and column.
      const unsigned Offset = Changed->second.originalOffset(Found.Offset);
      std::tie(Error.Line, Error.Column) = lineAndColumn(Changed->second.Result->Original, Offset);
      Error.Rules = Changed->second.rulesOnLineOf(Offset);
    }
    Errors.push_back(std::move(Error));
  }
  llvm::append_range(Errors, CopyWrites.Errors);
  return Errors;
}

std::string describe(const RewriteError &Error) {
  std::string Where = Error.Line ? llvm::formatv("{0}:{1}:{2}: ", Error.File, Error.Line, Error.Column).str()
                                 : Error.File + ": ";
  std::string Rules;
  for (const std::string &Rule : Error.Rules)
    Rules += (Rules.empty() ? " [" : ",") + Rule;
  if (!Rules.empty())
    Rules += "]";
  return Where + (Error.Internal ? "error: " : "error: the migrated code would not compile: ") +
         Error.Message + Rules;
}

} // namespace to_device_migrate
