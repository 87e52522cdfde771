#include "PerSampleCallRule.h"
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

/// A copy of host data that the tool leaves on the host for the per-sample
/// code it is handed to (HostWrites.h).
bool isHeldHostData(const Expr &E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(ignoreConversions(&E)->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && holdsHostData(*Var);
}

/// The node above `E` (null at the top).
const Stmt *parentOf(ASTContext &Ast, const Expr &E) {
  DynTypedNodeList Parents = Ast.getParents(E);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

} // namespace

void PerSampleCallRule::registerMatchers(MatchFinder *Finder) {
  // Training code calling a dataset's or transform's method directly
  // (`denormalize(image)`, `dataset.get(i)`): per-sample code works on the CPU.
  Finder->addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               callExpr(isExpansionInFile(Ctx.file()), callee(cxxMethodDecl().bind("method")),
                        anyOf(cxxMemberCallExpr(), cxxOperatorCallExpr()))
                   .bind("per-sample-call")),
      this);
}

void PerSampleCallRule::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("per-sample-call");
  const auto *Method = Result.Nodes.getNodeAs<CXXMethodDecl>("method");
  if (isPerSampleClass(Method->getParent()) && !Ctx.isPerSampleCode(*Call))
    crossIntoPerSampleCode(*Call, *Method);
}

void PerSampleCallRule::crossIntoPerSampleCode(const CallExpr &Call, const CXXMethodDecl &Method) {
  bool Crossed = false, Brought = false;
  // An operator() call's first argument is the object itself.
  for (unsigned I = isa<CXXOperatorCallExpr>(Call) ? 1 : 0; I < Call.getNumArgs(); ++I) {
    const Expr *Arg = Call.getArg(I)->IgnoreImplicit();
    if (!isTensorType(Arg->getType()) || isa<CXXDefaultArgExpr>(Arg) || isBroughtToHost(*Arg))
      continue;
    if (isHeldHostData(*Arg)) { // on the host already, for this call
      Crossed = true;
      continue;
    }
    bool Postfix =
        isa<CallExpr, DeclRefExpr, MemberExpr, ParenExpr>(Arg) && !isa<CXXOperatorCallExpr>(Arg);
    if (!Postfix)
      rewrite(Arg->getSourceRange(), insertion(Ctx.offsetOf(Arg->getBeginLoc()), "("))
          << Call.getSourceRange();
    rewrite(Arg->getSourceRange(),
            insertion(Ctx.offsetAfterToken(Arg->getEndLoc()), Postfix ? ".cpu()" : ").cpu()"))
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
    rewrite(Call.getSourceRange(), insertion(Ctx.offsetAfterToken(Call.getEndLoc()),
                                             ".to(" + Ctx.device().at(Call) + ")"));
  diag(compat::beginOf(Call),
       "'" + Method.getParent()->getNameAsString() +
           "' is per-sample code, which stays on the CPU: " +
           (Brought ? "the tensors handed to it are brought to the host"
                    : "what it is handed was built on the host and stays there until then") +
           (Returned ? std::string(", and what it returns is moved ") + (Brought ? "back " : "") +
                           "to the device"
                     : ""),
       DiagnosticIDs::Note)
      << Call.getSourceRange();
}

} // namespace to_device_migrate
