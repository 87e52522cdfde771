#include "DiscardedMoveRule.h"
#include "facts/Matchers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {

void DiscardedMoveRule::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               cxxMemberCallExpr(isExpansionInFile(Ctx.file()),
                                 callee(cxxMethodDecl(hasAnyName("to", "cuda", "cpu"),
                                                      ofClass(hasName("::at::Tensor")))),
                                 // Only device moves: assigning back a discarded
                                 // `x.to(torch::kDouble);` would change what runs.
                                 anyOf(callee(cxxMethodDecl(hasAnyName("cuda", "cpu"))),
                                       hasArgument(0, expr(isDeviceExpr()))),
                                 on(expr(anyOf(declRefExpr(), memberExpr())).bind("tensor")),
                                 hasParent(compoundStmt()))
                   .bind("call")),
      this);
}

void DiscardedMoveRule::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
  const auto *Tensor = Result.Nodes.getNodeAs<Expr>("tensor");
  if (Tensor->getType().isConstQualified() || !Tensor->isLValue())
    return;
  std::string Target = Ctx.text(Tensor->getSourceRange()).str();
  rewrite(Call->getSourceRange(), insertion(Ctx.offsetOf(Call->getBeginLoc()), Target + " = "));
  diag(Call->getBeginLoc(),
       "the result of '" + Ctx.text(Call->getSourceRange()).str() +
           "' was discarded (a tensor is not moved in place); it is assigned back",
       DiagnosticIDs::Note)
      << Call->getSourceRange();
}

} // namespace to_device_migrate
