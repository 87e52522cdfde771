#include "engine/Migrator.h"
#include "parse/HeaderFiles.h"
#include "parse/LibraryInstantiations.h"
#include "facts/ParseFacts.h"
#include "engine/Rule.h"
#include "compat/LlvmCompat.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace to_device_migrate {
namespace {

/// Which files of the translation unit are migrated: the main file, and the
/// first inclusion of each header MigrationOptions::IsMigratedHeader selects
/// (a header without include guards may be entered twice; it is one file).
class MigratedFiles {
public:
  MigratedFiles(const SourceManager &SM, const MigrationOptions &Options)
      : SM(SM), Options(Options) {}

  /// True if `File` is migrated; a selected header's first FileID joins the
  /// list on its first question.
  bool contains(FileID File) {
    if (File.isInvalid())
      return false;
    if (File == SM.getMainFileID())
      return true;
    auto [Known, New] = Answers.try_emplace(File, false);
    if (!New || !Options.IsMigratedHeader)
      return Known->second;
    std::string Path = compat::filePath(SM, File);
    if (Path.empty() || !Options.IsMigratedHeader(Path) || !Paths.insert(Path).second)
      return false;
    Known->second = true;
    Headers.push_back(File);
    return true;
  }
  /// The selected headers, in the order they were first seen.
  const std::vector<FileID> &headers() const { return Headers; }

private:
  const SourceManager &SM;
  const MigrationOptions &Options;
  llvm::DenseMap<FileID, bool> Answers;
  llvm::StringSet<> Paths;
  std::vector<FileID> Headers;
};

/// Records the #include lines of every migrated file (the device declaration
/// goes after them).
class IncludeRecorder : public compat::IncludeCallbacks {
public:
  IncludeRecorder(const SourceManager &SM, MigratedFiles &Files,
                  llvm::DenseMap<FileID, Migrator::FileParts> &Parts)
      : SM(SM), Files(Files), Parts(Parts) {}

  void included(SourceLocation HashLoc, CharSourceRange FilenameRange, StringRef,
                SrcMgr::CharacteristicKind) override {
    FileID Includer = SM.getFileID(HashLoc);
    if (HashLoc.isMacroID() || !Files.contains(Includer))
      return;
    StringRef Code = SM.getBufferData(Includer);
    unsigned End = SM.getFileOffset(FilenameRange.getEnd());
    size_t Newline = Code.find('\n', End);
    Parts[Includer].Includes.push_back(
        {SM.getFileOffset(HashLoc),
         static_cast<unsigned>(Newline == StringRef::npos ? Code.size() : Newline + 1)});
  }

  void Endif(SourceLocation Loc, SourceLocation IfLoc) override {
    FileID File = SM.getFileID(Loc);
    if (Loc.isMacroID() || IfLoc.isInvalid() || SM.getFileID(IfLoc) != File || !Files.contains(File))
      return;
    StringRef Code = SM.getBufferData(File);
    size_t Newline = Code.find('\n', SM.getFileOffset(Loc));
    Parts[File].Conditionals.push_back(
        {SM.getFileOffset(IfLoc),
         static_cast<unsigned>(Newline == StringRef::npos ? Code.size() : Newline + 1)});
  }

private:
  const SourceManager &SM;
  MigratedFiles &Files;
  llvm::DenseMap<FileID, Migrator::FileParts> &Parts;
};

/// Records the user's files the preprocessor enters (ParseAnalysis::UserFiles).
class UserFileRecorder : public compat::IncludeCallbacks {
public:
  explicit UserFileRecorder(llvm::StringSet<> &Files) : Files(Files) {}
  void included(SourceLocation, CharSourceRange, StringRef Path,
                SrcMgr::CharacteristicKind Kind) override {
    if (!Path.empty() && Kind == SrcMgr::C_User)
      Files.insert(Path);
  }

private:
  llvm::StringSet<> &Files;
};

class MigrateConsumer : public ASTConsumer {
public:
  MigrateConsumer(Migrator &Owner, CompilerInstance &CI, const MigrationOptions &Options)
      : Owner(Owner), CI(CI), Files(CI.getSourceManager(), Options) {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<IncludeRecorder>(CI.getSourceManager(), Files, Parts));
    CI.getPreprocessor().addPPCallbacks(std::make_unique<UserFileRecorder>(UserFiles));
  }

  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    const SourceManager &SM = CI.getSourceManager();
    for (Decl *D : Group)
      if (FileID File = SM.getFileID(SM.getExpansionLoc(D->getLocation())); Files.contains(File))
        Parts[File].TopLevelDecls.push_back(D);
    if (CI.hasSema())
      Instantiations.drop(CI.getSema());
    return true;
  }

  void HandleTranslationUnit(ASTContext &Ast) override {
    const SourceManager &SM = Ast.getSourceManager();
    if (CI.getDiagnostics().hasErrorOccurred()) {
      std::string Main = compat::fileName(SM, SM.getMainFileID());
      Owner.fail(Main.empty() ? "<input>" : Main);
      return;
    }
    std::vector<std::pair<FileID, Migrator::FileParts>> Headers;
    for (FileID Header : Files.headers())
      Headers.emplace_back(Header, std::move(Parts[Header]));
    std::vector<std::string> Read = {compat::filePath(SM, SM.getMainFileID())};
    for (const auto &File : UserFiles)
      Read.push_back(File.getKey().str());
    Owner.migrate(Ast, std::move(Parts[SM.getMainFileID()]), std::move(Headers), std::move(Read));
  }

private:
  Migrator &Owner;
  CompilerInstance &CI;
  MigratedFiles Files;
  llvm::DenseMap<FileID, Migrator::FileParts> Parts;
  llvm::StringSet<> UserFiles;
  LibraryInstantiations Instantiations;
};

class MigrateAction : public ASTFrontendAction {
public:
  MigrateAction(Migrator &Owner, const MigrationOptions &Options) : Owner(Owner), Options(Options) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    return std::make_unique<MigrateConsumer>(Owner, CI, Options);
  }

private:
  Migrator &Owner;
  const MigrationOptions &Options;
};

class MigrateActionFactory : public tooling::FrontendActionFactory {
public:
  MigrateActionFactory(Migrator &Owner, const MigrationOptions &Options)
      : Owner(Owner), Options(Options) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<MigrateAction>(Owner, Options);
  }

private:
  Migrator &Owner;
  const MigrationOptions &Options;
};

} // namespace

std::unique_ptr<tooling::FrontendActionFactory> Migrator::newActionFactory() {
  return std::make_unique<MigrateActionFactory>(*this, Options);
}

void Migrator::migrate(ASTContext &Ast, FileParts Main,
                       std::vector<std::pair<FileID, FileParts>> Headers,
                       std::vector<std::string> UserFiles) {
  // Where code runs is a question about the whole parse (ParseFacts.h).
  std::vector<Decl *> All = Main.TopLevelDecls;
  llvm::DenseSet<FileID> Files = {Ast.getSourceManager().getMainFileID()};
  for (const auto &[Header, Parts] : Headers) {
    llvm::append_range(All, Parts.TopLevelDecls);
    Files.insert(Header);
  }
  Ast.setTraversalScope(All);
  if (AnalyseOnly) {
    ParseAnalysis Analysis{ParseFacts::summarize(Ast, All, Files), std::move(UserFiles)};
    std::lock_guard<std::mutex> Guard(Lock);
    Analyses.push_back(std::move(Analysis));
    return;
  }
  const ParseFacts Facts(Ast, All, Files, Options.Program);

  std::vector<FileResult> Done;
  Done.push_back(migrateFile(Ast, Ast.getSourceManager().getMainFileID(), std::move(Main), Options,
                             Facts));
  for (auto &[Header, Parts] : Headers) {
    MigrationOptions ForHeader = Options;
    ForHeader.HeaderPrefix = headerPrefix(compat::filePath(Ast.getSourceManager(), Header));
    Done.push_back(migrateFile(Ast, Header, std::move(Parts), std::move(ForHeader), Facts));
  }
  std::lock_guard<std::mutex> Guard(Lock);
  for (FileResult &Result : Done)
    Results.push_back(std::move(Result));
}

FileResult Migrator::migrateFile(ASTContext &Ast, FileID File, FileParts Parts,
                                 MigrationOptions FileOptions, const ParseFacts &Facts) {
  // Only the file's own declarations are traversed: matching inside
  // <torch/torch.h> would cost more than parsing it, and is never rewritten.
  Ast.setTraversalScope(Parts.TopLevelDecls);

  MigrationContext Ctx(std::move(FileOptions));
  for (IncludeLine &Include : Parts.Includes)
    for (const auto &Block : Parts.Conditionals)
      if (Block.first < Include.HashOffset && Include.HashOffset < Block.second)
        Include.Conditionals.push_back(Block);
  Ctx.startTranslationUnit(Ast, File, std::move(Parts.Includes), Facts);
  std::vector<std::unique_ptr<Rule>> Rules;
  ast_matchers::MatchFinder Finder;
  for (const RuleInfo &Info : registeredRules()) {
    if (!Info.AlwaysRuns && !RuleNames.empty() && !llvm::is_contained(RuleNames, Info.Name))
      continue;
    Rules.push_back(Info.Create(Info.Name, Ctx));
    Rules.back()->registerMatchers(&Finder);
  }
  Finder.matchAST(Ast);
  for (auto &R : Rules) // in the list's order: the finishing steps last
    R->onEndOfFile();
  return Ctx.finishTranslationUnit();
}

void Migrator::fail(std::string Path) {
  std::lock_guard<std::mutex> Guard(Lock);
  Failures.push_back(std::move(Path));
}

} // namespace to_device_migrate
