#include "facts/SharedHostMemory.h"
#include "facts/HostWrites.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

/// The member whose storage `Data` points into: `buf_.data()`, `&buf_[0]`,
/// `buf_` (an array), `&value_`.
const FieldDecl *memberPointedInto(const Expr *Data) {
  while (Data) {
    Data = Data->IgnoreParenImpCasts();
    if (const auto *Member = dyn_cast<MemberExpr>(Data))
      return dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (const auto *Address = dyn_cast<UnaryOperator>(Data);
        Address && Address->getOpcode() == UO_AddrOf)
      Data = Address->getSubExpr();
    else if (const auto *Element = dyn_cast<ArraySubscriptExpr>(Data))
      Data = Element->getBase();
    else if (const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Data);
             Operator && Operator->getOperator() == OO_Subscript)
      Data = Operator->getArg(0);
    else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Data))
      Data = Call->getImplicitObjectArgument();
    else if (const auto *Cast = dyn_cast<CastExpr>(Data))
      Data = Cast->getSubExpr();
    else
      return nullptr;
  }
  return nullptr;
}

/// The class whose member function `E` is written in, if any.
const CXXRecordDecl *enclosingClass(ASTContext &Ast, const Expr &E) {
  DynTypedNodeList Parents = Ast.getParents(E);
  while (!Parents.empty()) {
    if (const auto *Method = Parents[0].get<CXXMethodDecl>())
      return Method->getParent();
    if (Parents[0].get<Decl>() && !Parents[0].get<VarDecl>())
      return nullptr;
    Parents = Ast.getParents(Parents[0]);
  }
  return nullptr;
}

} // namespace

const FieldDecl *sharedWrittenMember(ASTContext &Ast, const CallExpr &FromBlob) {
  // `torch::from_blob(...).clone()`: the program copies it where it is made.
  const CXXMemberCallExpr *Then = methodCalledOn(Ast, FromBlob);
  if (FromBlob.getNumArgs() == 0 ||
      (Then && Then->getMethodDecl() && Then->getMethodDecl()->getIdentifier() &&
       Then->getMethodDecl()->getName() == "clone"))
    return nullptr;
  const FieldDecl *Field = memberPointedInto(FromBlob.getArg(0));
  const auto *Owner = Field ? dyn_cast<CXXRecordDecl>(Field->getParent()) : nullptr;
  if (!Owner || Field->getType().isConstQualified())
    return nullptr;
  const auto ViewedByFromBlob = hasAncestor(
      callExpr(callee(functionDecl(hasAnyName("::torch::from_blob", "::at::from_blob")))));
  // The member's own class, and the class of the function viewing it (a
  // derived environment writing its base's board).
  for (const CXXRecordDecl *Class : {Owner, enclosingClass(Ast, FromBlob)}) {
    if (!Class || !Class->hasDefinition())
      continue;
    for (const CXXMethodDecl *Method : Class->methods()) {
      const FunctionDecl *Definition = nullptr;
      if (isa<CXXConstructorDecl>(Method) || !Method->hasBody(Definition) || !Definition->getBody())
        continue;
      ExprMutationAnalyzer Writes(*Definition->getBody(), Ast);
      for (const BoundNodes &Use :
           match(findAll(memberExpr(member(equalsNode(Field)), unless(ViewedByFromBlob)).bind("use")),
                 *Definition->getBody(), Ast))
        if (Writes.isMutated(Use.getNodeAs<Expr>("use")))
          return Field;
    }
  }
  return nullptr;
}

} // namespace to_device_migrate
