#include "ReceivedTensorRule.h"
#include "facts/HostWrites.h"
#include "facts/Matchers.h"
#include "facts/PerSampleCode.h"
#include "facts/TorchTypes.h"
#include "compat/LlvmCompat.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

/// Can a value of `Type` carry tensors into a call: a tensor, a module, a
/// batch, or a container or pointer of them?
bool carriesTensors(QualType Type, int Depth = 0) {
  if (Type.isNull() || Depth > 4)
    return false;
  Type = Type.getNonReferenceType();
  if (Type->isPointerType())
    return carriesTensors(Type->getPointeeType(), Depth + 1);
  if (isTensorType(Type) || classifyModuleType(Type).Handle != ModuleHandle::None)
    return true;
  const CXXRecordDecl *Record = Type->getAsCXXRecordDecl();
  if (!Record)
    return false;
  if (isOrDerivesFrom(Record, "torch::nn::Module") || isNamed(Record, "torch::data::Example"))
    return true;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Record))
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
      if (Arg.getKind() == TemplateArgument::Type && carriesTensors(Arg.getAsType(), Depth + 1))
        return true;
  return false;
}

/// Does the program place what `F` returns? Library functions follow their
/// arguments or their options (another rule's business); the functions of the
/// files this run migrates are placed there, unless they are per-sample code.
bool isPlacedSource(MigrationContext &Ctx, const FunctionDecl &F) {
  if (isLibraryDecl(&F))
    return true;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(&F);
      Method && (isOrDerivesFrom(Method->getParent(), "torch::nn::Module") ||
                 classifyModuleType(compat::recordType(Ctx.ast(), Method->getParent())).Handle !=
                     ModuleHandle::None))
    return true; // a module's forward() and friends compute on its device
  const FunctionDecl *Definition = F.getDefinition();
  return Definition && Ctx.isMigratedInThisRun(Definition->getLocation()) &&
         !Ctx.perSample().isPerSampleFunction(&F) && !Ctx.facts().returnsHostBuiltTensor(F);
}

/// A copy of host data that the tool leaves on the host for the per-sample
/// code it is handed to (HostWrites.h).
bool isHeldHostData(const Expr &E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(ignoreConversions(&E)->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && holdsHostData(*Var);
}

/// `x.cpu()`, `x.to(torch::kCPU)`: the program asks for a host tensor.
bool isOnHost(const Expr &E) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(E.IgnoreParenImpCasts());
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  if (!Method || !Method->getIdentifier())
    return false;
  if (Method->getName() == "cpu")
    return true;
  if (Method->getName() != "to" || Call->getNumArgs() == 0)
    return false;
  const auto *Ref = dyn_cast<DeclRefExpr>(ignoreConversions(Call->getArg(0))->IgnoreParenImpCasts());
  return Ref && Ref->getDecl()->getIdentifier() && Ref->getDecl()->getName() == "kCPU";
}

/// `f().size(0)`, `f().item<float>()`: the tensor is asked a host question,
/// not used for device computation.
bool isQueriedOnHost(ASTContext &Ast, const Expr &Call) {
  const Expr *Current = &Call;
  while (true) {
    DynTypedNodeList Parents = Ast.getParents(*Current);
    const auto *Parent = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (!Parent || !isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                        ParenExpr, MemberExpr>(Parent))
      return false;
    if (isa<MemberExpr>(Parent)) {
      DynTypedNodeList Calls = Ast.getParents(*Parent);
      const auto *Method = Calls.empty() ? nullptr : Calls[0].get<CXXMemberCallExpr>();
      return Method && !isTensorType(Method->getType());
    }
    Current = Parent;
  }
}

/// The node above `E` (null at the top).
const Stmt *parentOf(ASTContext &Ast, const Expr &E) {
  DynTypedNodeList Parents = Ast.getParents(E);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

} // namespace

void ReceivedTensorRule::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               callExpr(isExpansionInFile(Ctx.file()), unless(cxxOperatorCallExpr()),
                        callee(functionDecl(returns(qualType(unless(referenceType())))).bind("callee")),
                        unless(hasParent(compoundStmt())))
                   .bind("call")),
      this);
  // Training code calling a dataset's or transform's method directly
  // (`denormalize(image)`, `dataset.get(i)`): per-sample code works on the CPU.
  Finder->addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               callExpr(isExpansionInFile(Ctx.file()), callee(cxxMethodDecl().bind("method")),
                        anyOf(cxxMemberCallExpr(), cxxOperatorCallExpr()))
                   .bind("per-sample-call")),
      this);
}

void ReceivedTensorRule::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("per-sample-call")) {
    const auto *Method = Result.Nodes.getNodeAs<CXXMethodDecl>("method");
    if (isPerSampleClass(Method->getParent()) && !Ctx.isPerSampleCode(*Call))
      crossIntoPerSampleCode(*Call, *Method);
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *Callee = Result.Nodes.getNodeAs<FunctionDecl>("callee");
  if (!isTensorType(Call->getType()) || isPlacedSource(Ctx, *Callee) ||
      llvm::any_of(Call->arguments(), [](const Expr *Arg) { return carriesTensors(Arg->getType()); }))
    return;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
      Member && carriesTensors(Member->getImplicitObjectArgument()->getType()))
    return;
  if (Ctx.isPerSampleCode(*Call) ||
      isMovedToDevice(Ctx.ast(), *Call) || isQueriedOnHost(Ctx.ast(), *Call))
    return;
  rewrite(Call->getSourceRange(), insertion(Ctx.offsetAfterToken(Call->getEndLoc()), ".to(" + Ctx.device().at(*Call) + ")"));
  std::string Why = Ctx.perSample().isPerSampleFunction(Callee)
                        ? "is per-sample code, which stays on the CPU"
                    : Ctx.facts().returnsHostBuiltTensor(*Callee)
                        ? "fills it from host code, so it is built on the CPU"
                        : "is not in a file this run migrates";
  diag(compat::beginOf(*Call), "'" + Callee->getNameAsString() + "' returns a tensor whose placement the tool " +
                 "cannot see (its body " + Why + "): moved to the device where it is received " +
                 "(no copy if it is there already)", DiagnosticIDs::Note)
      << Call->getSourceRange();
}

void ReceivedTensorRule::crossIntoPerSampleCode(const CallExpr &Call, const CXXMethodDecl &Method) {
  bool Crossed = false, Brought = false;
  // An operator() call's first argument is the object itself.
  for (unsigned I = isa<CXXOperatorCallExpr>(Call) ? 1 : 0; I < Call.getNumArgs(); ++I) {
    const Expr *Arg = Call.getArg(I)->IgnoreImplicit();
    if (!isTensorType(Arg->getType()) || isa<CXXDefaultArgExpr>(Arg) || isOnHost(*Arg))
      continue;
    if (isHeldHostData(*Arg)) { // on the host already, for this call
      Crossed = true;
      continue;
    }
    bool Postfix = isa<CallExpr, DeclRefExpr, MemberExpr, ParenExpr>(Arg) &&
                   !isa<CXXOperatorCallExpr>(Arg);
    if (!Postfix)
      rewrite(Arg->getSourceRange(), insertion(Ctx.offsetOf(Arg->getBeginLoc()), "(")) << Call.getSourceRange();
    rewrite(Arg->getSourceRange(), insertion(Ctx.offsetAfterToken(Arg->getEndLoc()), Postfix ? ".cpu()" : ").cpu()"))
        << Call.getSourceRange();
    Crossed = Brought = true;
  }
  if (!Crossed)
    return;
  // What it returns is on the host too: back to the device where it is used
  // (`normalize(x.cpu())` fed to the model), unless asked a host question.
  const bool Returned = isTensorType(Call.getType()) && !isMovedToDevice(Ctx.ast(), Call) &&
                        !isQueriedOnHost(Ctx.ast(), Call) &&
                        !isa_and_nonnull<CompoundStmt>(parentOf(Ctx.ast(), Call));
  if (Returned)
    rewrite(Call.getSourceRange(), insertion(Ctx.offsetAfterToken(Call.getEndLoc()), ".to(" + Ctx.device().at(Call) + ")"));
  diag(compat::beginOf(Call), "'" + Method.getParent()->getNameAsString() +
                 "' is per-sample code, which stays on the CPU: " +
                 (Brought ? "the tensors handed to it are brought to the host"
                          : "what it is handed was built on the host and stays there until then") +
                 (Returned ? std::string(", and what it returns is moved ") +
                                 (Brought ? "back " : "") + "to the device"
                           : ""),
       DiagnosticIDs::Note)
      << Call.getSourceRange();
}

} // namespace to_device_migrate
