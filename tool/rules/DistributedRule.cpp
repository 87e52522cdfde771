#include "DistributedRule.h"
#include "facts/Matchers.h"
#include "facts/TorchTypes.h"
#include "compat/LlvmCompat.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/TypeLoc.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

constexpr llvm::StringLiteral Runtime = "todevice::distributed::";

/// Does `S` call the runtime function `todevice::distributed::<Name>`?
bool callsRuntime(const Stmt *S, llvm::StringRef Name) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *F = Call->getDirectCallee())
      if (isNamed(F, (Runtime + Name).str()))
        return true;
  for (const Stmt *Child : S->children())
    if (callsRuntime(Child, Name))
      return true;
  return false;
}

/// The statement of a block holding `E`, and the block; nulls if `E` is not a
/// statement of its own in a block.
std::pair<const Stmt *, const CompoundStmt *> statementInBlock(ASTContext &Ast, const Expr &E) {
  DynTypedNode Node = DynTypedNode::create(E);
  while (true) {
    DynTypedNodeList Parents = Ast.getParents(Node);
    if (Parents.empty())
      return {nullptr, nullptr};
    if (const auto *Block = Parents[0].get<CompoundStmt>())
      return {Node.get<Stmt>(), Block};
    if (!Parents[0].get<Expr>()) // a declaration, a condition...
      return {nullptr, nullptr};
    Node = Parents[0];
  }
}

/// Our sampler for LibTorch's `Sampler` type, if there is one.
llvm::StringRef distributedSampler(QualType Sampler) {
  const CXXRecordDecl *Record = Sampler.isNull() ? nullptr : Sampler->getAsCXXRecordDecl();
  if (isNamed(Record, "torch::data::samplers::SequentialSampler"))
    return "todevice::distributed::SequentialSampler";
  if (isNamed(Record, "torch::data::samplers::RandomSampler"))
    return "todevice::distributed::RandomSampler";
  return "";
}

bool isDistributedSampler(QualType Sampler) {
  const CXXRecordDecl *Record = Sampler.isNull() ? nullptr : Sampler->getAsCXXRecordDecl();
  std::string Name = Record ? Record->getQualifiedNameAsString() : "";
  return compat::startsWith(Name, "todevice::distributed::") ||
         compat::startsWith(Name, "torch::data::samplers::Distributed");
}

} // namespace

void DistributedRule::registerMatchers(MatchFinder *Finder) {
  if (!Ctx.options().Distributed)
    return;
  Finder->addMatcher(
      functionDecl(isMain(), isDefinition(), isExpansionInFile(Ctx.file())).bind("main"), this);
  Finder->addMatcher(
      traverse(
          TK_IgnoreUnlessSpelledInSource,
          callExpr(isExpansionInFile(Ctx.file()),
                   callee(functionDecl(hasName("::torch::data::make_data_loader")).bind("factory")))
              .bind("loader")),
      this);
  Finder->addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               cxxMemberCallExpr(
                   isExpansionInFile(Ctx.file()),
                   callee(cxxMethodDecl(hasName("step"),
                                        ofClass(isSameOrDerivedFrom("::torch::optim::Optimizer")))))
                   .bind("step")),
      this);
  Finder->addMatcher(traverse(TK_IgnoreUnlessSpelledInSource,
                              callExpr(isExpansionInFile(Ctx.file()),
                                       callee(functionDecl(hasName("::torch::save"))))
                                  .bind("save")),
                     this);
}

void DistributedRule::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Main = Result.Nodes.getNodeAs<FunctionDecl>("main"))
    initializeInMain(*Main);
  else if (const auto *Loader = Result.Nodes.getNodeAs<CallExpr>("loader"))
    distributeLoader(*Loader, *Result.Nodes.getNodeAs<FunctionDecl>("factory"));
  else if (const auto *Step = Result.Nodes.getNodeAs<CXXMemberCallExpr>("step"))
    averageBeforeStep(*Step);
  else if (const auto *Save = Result.Nodes.getNodeAs<CallExpr>("save"))
    saveOnMainRank(*Save);
}

void DistributedRule::initializeInMain(const FunctionDecl &Main) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Main.getBody());
  if (!Body || callsRuntime(Body, "init"))
    return;
  Ctx.device().requireInclude("todevice/distributed.h");
  std::string Indent = Body->body_empty() ? "  " : Ctx.indentationOf(Body->body_front()->getBeginLoc());
  rewrite(Body->getSourceRange(),
          insertion(
              Ctx.offsetAfterToken(Body->getLBracLoc()),
              "\n" + Indent +
                  "todevice::distributed::init(); // RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT"));
}

void DistributedRule::distributeLoader(const CallExpr &Call, const FunctionDecl &Factory) {
  const auto *Callee = dyn_cast<DeclRefExpr>(Call.getCallee()->IgnoreImplicit());
  const FunctionTemplateSpecializationInfo *Info = Factory.getTemplateSpecializationInfo();
  if (!Callee || !Info)
    return;
  Ctx.device().requireInclude("todevice/distributed.h");
  // make_data_loader(dataset, sampler, options): the sampler is an argument.
  if (Factory.getNumParams() == 3) {
    const Expr *Sampler = ignoreConversions(Call.getArg(1));
    QualType Type = Sampler->getType();
    if (isDistributedSampler(Type))
      return;
    llvm::StringRef Ours = distributedSampler(Type);
    const auto *Construct = dyn_cast<CXXConstructExpr>(Sampler->IgnoreImplicit());
    TypeSourceInfo *Written = nullptr;
    if (const auto *Temporary = dyn_cast_or_null<CXXTemporaryObjectExpr>(Construct))
      Written = Temporary->getTypeSourceInfo();
    else if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Sampler->IgnoreImplicit()))
      Written = Cast->getTypeInfoAsWritten();
    if (Ours.empty() || !Written || !Ctx.isWrittenInFile(Written->getTypeLoc().getSourceRange())) {
      diag(Sampler->getBeginLoc(),
           "this loader's sampler is not one the tool can make distributed (only "
           "SequentialSampler(n) and RandomSampler(n) written in the call are); give it "
           "a shard of its own with torch::data::samplers::DistributedRandomSampler")
          << Call.getSourceRange();
      return;
    }
    rewrite(Call.getSourceRange(), replacement(Written->getTypeLoc().getSourceRange(), Ours));
    return;
  }
  // make_data_loader<Sampler = RandomSampler>(dataset, options).
  QualType Sampler = Info->TemplateArguments->get(0).getAsType();
  if (isDistributedSampler(Sampler))
    return;
  llvm::StringRef Ours = distributedSampler(Sampler);
  if (Ours.empty()) {
    diag(Call.getBeginLoc(),
         "this loader's sampler is not one the tool can make distributed; give each rank "
         "a shard of its own (torch::data::samplers::DistributedRandomSampler)")
        << Call.getSourceRange();
    return;
  }
  if (Callee->hasExplicitTemplateArgs()) {
    const TemplateArgumentLoc &Written = Callee->template_arguments()[0];
    rewrite(Call.getSourceRange(), replacement(Written.getSourceRange(), Ours));
    return;
  }
  rewrite(Call.getSourceRange(),
          insertion(Ctx.offsetAfterToken(Callee->getEndLoc()), ("<" + Ours + ">").str()));
}

void DistributedRule::averageBeforeStep(const CXXMemberCallExpr &Step) {
  auto [Statement, Block] = statementInBlock(Ctx.ast(), Step);
  if (!Statement)
    return;
  // Already averaged: the statement before is the call.
  const Stmt *Previous = nullptr;
  for (const Stmt *S : Block->body()) {
    if (S == Statement)
      break;
    Previous = S;
  }
  if (callsRuntime(Previous, "average_gradients"))
    return;
  const Expr *Object = Step.getImplicitObjectArgument();
  std::string Optimizer = Ctx.text(Object->getSourceRange()).str();
  if (Object->getType()->isPointerType())
    Optimizer = "*" + Optimizer;
  Ctx.device().requireInclude("todevice/distributed.h");
  rewrite(Step.getSourceRange(),
          insertion(Ctx.offsetOf(Statement->getBeginLoc()),
                    "todevice::distributed::average_gradients(" + Optimizer + ");\n" +
                        Ctx.indentationOf(Statement->getBeginLoc())));
}

void DistributedRule::saveOnMainRank(const CallExpr &Save) {
  auto [Statement, Block] = statementInBlock(Ctx.ast(), Save);
  if (!Statement)
    return;
  Ctx.device().requireInclude("todevice/distributed.h");
  rewrite(Save.getSourceRange(), insertion(Ctx.offsetOf(Statement->getBeginLoc()),
                                           "if (todevice::distributed::is_main()) "));
}

} // namespace to_device_migrate
