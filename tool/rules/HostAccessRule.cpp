#include "HostAccessRule.h"
#include "facts/HostWrites.h"
#include "facts/Matchers.h"
#include "facts/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/Support/CommandLine.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

// The one way to see the tool's assertion (RewriteCheck.cpp) refuse a write
// redirected to a copy is to make this rule wrong on purpose: its lit test
// (host-access/write-to-copy-is-an-internal-error.cpp).
llvm::cl::opt<bool> MissHostWritesForTesting("miss-host-writes-for-testing", llvm::cl::Hidden);

/// A variable initialised with `x.cpu()`: already a host tensor.
bool isHostCopy(const VarDecl &Var) {
  const auto *Call = Var.getInit() ? dyn_cast<CXXMemberCallExpr>(ignoreConversions(Var.getInit())) : nullptr;
  return Call && Call->getMethodDecl() && Call->getMethodDecl()->getName() == "cpu";
}

/// `t.contiguous().data_ptr<float>()`, `t.to(torch::kFloat).accessor<..>()`:
/// the tensor a chain of tensor methods starts from, when no view reaches it
/// (viewedReference()); a read through the chain reads a copy of it or it.
/// Null when the chain brings it to the host (`.cpu()`, `.to(torch::kCPU)`)
/// or starts from no named tensor.
const Expr *referenceUnderMethods(const Expr &Object, bool &BroughtToHost) {
  const Expr *E = Object.IgnoreImplicit()->IgnoreParens();
  while (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
    if (!isTensorType(Call->getType()))
      return nullptr;
    if (isBroughtToHost(*Call)) {
      BroughtToHost = true;
      return nullptr;
    }
    E = Call->getImplicitObjectArgument()->IgnoreImplicit()->IgnoreParens();
    if (const Expr *Reference = viewedReference(*E))
      return Reference;
  }
  return nullptr;
}

/// `results.at(0)`, `outputs[1]`, `heads.front()`, `std::get<0>(pair)`: an
/// element of a named container of tensors (a variable, a binding, a member),
/// chosen by indices that change nothing. Within one statement it names one
/// tensor as a variable does, so its reads can share one host copy made
/// before the statement.
struct ContainerElement {
  const Expr *Element = nullptr;
  const NamedDecl *Container = nullptr; ///< what it is taken from (for the copy's name)
};

ContainerElement elementOfNamedContainer(ASTContext &Ast, const Expr &Object) {
  const Expr *E = Object.IgnoreImplicit()->IgnoreParens();
  if (!isTensorType(E->getType()))
    return {};
  const Expr *Container = nullptr;
  llvm::SmallVector<const Expr *, 1> Indices;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2) {
    Container = Op->getArg(0);
    Indices.push_back(Op->getArg(1));
  } else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (!Method || !Method->getIdentifier() ||
        !llvm::is_contained({"at", "front", "back"}, Method->getName()))
      return {};
    Container = Call->getImplicitObjectArgument();
    Indices.append(Call->arg_begin(), Call->arg_end());
  } else if (const auto *Call = dyn_cast<CallExpr>(E);
             Call && Call->getNumArgs() == 1 && isNamed(Call->getDirectCallee(), "std::get")) {
    Container = Call->getArg(0);
  }
  if (!Container || isTensorType(Container->getType()) ||
      llvm::any_of(Indices, [&](const Expr *I) { return I->HasSideEffects(Ast); }))
    return {};
  const Expr *Named = Container->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Named); Ref && isa<VarDecl, BindingDecl>(Ref->getDecl()))
    return {E, Ref->getDecl()};
  if (const auto *Member = dyn_cast<MemberExpr>(Named);
      Member && isa<FieldDecl>(Member->getMemberDecl()) &&
      isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
    return {E, Member->getMemberDecl()};
  return {};
}

} // namespace

void HostAccessRule::registerMatchers(MatchFinder *Finder) {
  // On a tensor variable or a view of one (`t[0]`, `t.select(0, i)`).
  const auto Access = cxxMemberCallExpr(isExpansionInFile(Ctx.file()),
                                        callee(cxxMethodDecl(isHostMemoryAccessMethod())),
                                        on(expr().bind("object")));
  Finder->addMatcher(traverse(TK_IgnoreUnlessSpelledInSource, Access.bind("access")), this);
  // `t.data_ptr<T>()` in a function template is a dependent call, resolved in
  // each instantiation, whose locations are the template's: every
  // instantiation asks for the same edit, which is kept once.
  Finder->addMatcher(traverse(TK_AsIs, cxxMemberCallExpr(Access, isInTemplateInstantiation())
                                           .bind("access")),
                     this);
}

void HostAccessRule::check(const MatchFinder::MatchResult &Result) {
  const auto *Access = Result.Nodes.getNodeAs<CXXMemberCallExpr>("access");
  const Expr &Object = *Result.Nodes.getNodeAs<Expr>("object");
  const Expr *Reference = viewedReference(Object);
  bool BroughtToHost = false;
  if (!Reference)
    Reference = referenceUnderMethods(Object, BroughtToHost);
  if (!Reference)
    if (const ContainerElement Element = elementOfNamedContainer(Ctx.ast(), Object); Element.Element) {
      if (!Ctx.isPerSampleCode(*Access))
        readThroughHostCopy(*Access, *Element.Element, Element.Container->getName(), nullptr);
      return;
    }
  if (!Reference) {
    // A tensor a call computes (`net->forward(x).data_ptr<float>()`): no
    // copy can be placed safely (the pointer may outlive it); say so.
    if (!BroughtToHost && !Ctx.isPerSampleCode(*Access) && isTensorType(Object.getType()))
      diag(Access->getBeginLoc(),
           "host code reaches the memory of a tensor computed here through " +
               Access->getMethodDecl()->getName().str() +
               "(); if it lives on the device this reads device memory: bring it to the host "
               "first (.cpu())")
          << Access->getSourceRange();
    return;
  }
  const ValueDecl *Tensor = referencedTensor(*Reference);
  // A tensor its function builds and fills from the host stays on the CPU
  // (HostWrites.h): nothing to bring back nor to report. So does a member the
  // whole program builds that way, and per-sample code's (a data set's).
  if (const auto *Var = dyn_cast<VarDecl>(Tensor);
      Var && (!isTensorType(Var->getType()) || isHostCopy(*Var) ||
              isHostBuiltTensor(Ctx.ast(), *Var)))
    return;
  if (const auto *Field = dyn_cast<FieldDecl>(Tensor);
      Field && (Ctx.facts().isHostBuiltField(*Field) || Ctx.isPerSampleCode(*Access)))
    return;
  readThroughHostCopy(*Access, *Reference, Tensor->getName(), dyn_cast<VarDecl>(Tensor));
}

void HostAccessRule::readThroughHostCopy(const CXXMemberCallExpr &Access, const Expr &Reference,
                                         StringRef Name, const VarDecl *Local) {
  const Stmt *Statement = Ctx.statementInBlock(Access).first;
  StringRef Method = Access.getMethodDecl()->getName();
  if (!Statement) {
    // A constructor's member initialiser, a default argument, a global's
    // initialiser: no statement before it can hold the one host copy the
    // access needs; say so.
    diag(Access.getBeginLoc(),
         "host code reaches the memory of '" + Name.str() + "' through " + Method.str() +
             "() where no statement can hold a host copy (an initialiser or a default "
             "argument); if it lives on the device this reaches device memory: bring it to "
             "the host first (.cpu())")
        << Access.getSourceRange();
    return;
  }
  // A write into a tensor nothing reads afterwards may go to a host copy: the
  // host code writing and reading through the pointer sees it (HostWrites.h).
  if (!MissHostWritesForTesting && isWriteAccess(Ctx.ast(), Access) &&
      !(Local && isDeadAfterHostWrite(Ctx.ast(), *Statement, *Local))) {
    diag(Access.getBeginLoc(),
         "host code writes into '" + Name.str() + "' through " + Method.str() +
             "(); on the device a .cpu() copy would take the write, so this is not "
             "rewritten: fill a CPU tensor and move it with .to(device), or use tensor "
             "operations")
        << Access.getSourceRange();
    return;
  }
  // One host copy per statement and tensor, shared by all its reads there
  // (`std::vector<float> v(t.data_ptr<float>(), t.data_ptr<float>() + n)`).
  const std::string Text = Ctx.text(Reference.getSourceRange()).str();
  std::string &Host = HostCopies[{Ctx.offsetOf(Statement->getBeginLoc()), Text}];
  if (Host.empty())
    Host = Ctx.device().freshName(Name.str() + "_host", Name.str() + "_on_host");
  rewrite(Access.getSourceRange(),
          insertion(Ctx.offsetOf(Statement->getBeginLoc()),
                    "auto " + Host + " = " + Text + ".cpu();\n" +
                        Ctx.indentationOf(Statement->getBeginLoc())));
  rewrite(Access.getSourceRange(), replacement(Reference.getSourceRange(), Host));
}

} // namespace to_device_migrate
