#include "Migrator.h"
#include "FinishingSteps.h"
#include "Rule.h"
#include "compat/LlvmCompat.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace to_device_migrate {
namespace {

/// Records where the main file's #include lines end (the device declaration
/// goes after them), and every user (non-system) file included at any depth.
class IncludeRecorder : public compat::IncludeCallbacks {
public:
  IncludeRecorder(const SourceManager &SM, std::vector<IncludeLine> &Lines,
                  std::vector<std::string> &UserFiles)
      : SM(SM), Lines(Lines), UserFiles(UserFiles) {}

  void included(SourceLocation HashLoc, CharSourceRange FilenameRange, StringRef Path,
                SrcMgr::CharacteristicKind Kind) override {
    if (!Path.empty() && Kind == SrcMgr::C_User && !llvm::is_contained(UserFiles, Path))
      UserFiles.push_back(Path.str());
    if (!SM.isWrittenInMainFile(HashLoc))
      return;
    StringRef Code = SM.getBufferData(SM.getMainFileID());
    unsigned End = SM.getFileOffset(FilenameRange.getEnd());
    size_t Newline = Code.find('\n', End);
    Lines.push_back({SM.getFileOffset(HashLoc),
                     static_cast<unsigned>(Newline == StringRef::npos ? Code.size() : Newline + 1)});
  }

private:
  const SourceManager &SM;
  std::vector<IncludeLine> &Lines;
  std::vector<std::string> &UserFiles;
};

class MigrateConsumer : public ASTConsumer {
public:
  MigrateConsumer(Migrator &Owner, CompilerInstance &CI) : Owner(Owner), CI(CI) {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<IncludeRecorder>(CI.getSourceManager(), Includes, UserIncludes));
  }

  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    const SourceManager &SM = CI.getSourceManager();
    for (Decl *D : Group)
      if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
        MainFileDecls.push_back(D);
    return true;
  }

  void HandleTranslationUnit(ASTContext &Ast) override {
    const SourceManager &SM = Ast.getSourceManager();
    if (CI.getDiagnostics().hasErrorOccurred()) {
      std::string Main = compat::fileName(SM, SM.getMainFileID());
      Owner.fail(Main.empty() ? "<input>" : Main);
      return;
    }
    Owner.migrate(Ast, std::move(MainFileDecls), std::move(Includes), std::move(UserIncludes));
  }

private:
  Migrator &Owner;
  CompilerInstance &CI;
  std::vector<Decl *> MainFileDecls;
  std::vector<IncludeLine> Includes;
  std::vector<std::string> UserIncludes;
};

class MigrateAction : public ASTFrontendAction {
public:
  explicit MigrateAction(Migrator &Owner) : Owner(Owner) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    return std::make_unique<MigrateConsumer>(Owner, CI);
  }

private:
  Migrator &Owner;
};

class MigrateActionFactory : public tooling::FrontendActionFactory {
public:
  explicit MigrateActionFactory(Migrator &Owner) : Owner(Owner) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<MigrateAction>(Owner);
  }

private:
  Migrator &Owner;
};

} // namespace

std::unique_ptr<tooling::FrontendActionFactory> Migrator::newActionFactory() {
  return std::make_unique<MigrateActionFactory>(*this);
}

void Migrator::migrate(ASTContext &Ast, std::vector<Decl *> MainFileDecls,
                       std::vector<IncludeLine> Includes, std::vector<std::string> UserIncludes) {
  // Only the main file's declarations are traversed: matching inside
  // <torch/torch.h> would cost more than parsing it, and is never rewritten.
  Ast.setTraversalScope(MainFileDecls);

  MigrationContext Ctx(Options);
  Ctx.startTranslationUnit(Ast, std::move(Includes));
  std::vector<std::unique_ptr<Rule>> Rules;
  ast_matchers::MatchFinder Finder;
  for (const RuleInfo &Info : registeredRules()) {
    if (!RuleNames.empty() && !llvm::is_contained(RuleNames, Info.Name))
      continue;
    Rules.push_back(Info.Factory->create(Info.Name, Ctx));
    Rules.back()->registerMatchers(Finder);
  }
  Finder.matchAST(Ast);
  for (auto &R : Rules)
    R->finishFile();
  for (const FinishingStep &Step : finishingSteps())
    Step.Run(Ctx, Step.Name);

  std::lock_guard<std::mutex> Guard(Lock);
  Results.push_back(Ctx.finishTranslationUnit());
  Results.back().UserIncludes = std::move(UserIncludes);
}

void Migrator::fail(std::string Path) {
  std::lock_guard<std::mutex> Guard(Lock);
  Failures.push_back(std::move(Path));
}

} // namespace to_device_migrate
