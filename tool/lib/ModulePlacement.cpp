#include "ModulePlacement.h"
#include "Matchers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace todevice {
namespace {

/// `net` in `net->f(...)`, `net.f(...)`, `(*net).f(...)`: the variable a call is made on.
const VarDecl *calledOn(const Expr *Object) {
  if (!Object)
    return nullptr;
  Object = Object->IgnoreParenImpCasts();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Object);
      Op && (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star) && Op->getNumArgs())
    Object = Op->getArg(0)->IgnoreParenImpCasts();
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Object)) // holder.get()/ptr()
    Object = Member->getImplicitObjectArgument()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Object);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

bool mentionsCPU(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (Ref->getDecl()->getName() == "kCPU")
      return true;
  for (const Stmt *Child : S->children())
    if (mentionsCPU(Child))
      return true;
  return false;
}

/// Finds `var->to(<not the CPU>)` anywhere below the traversal root.
class MoveFinder : public RecursiveASTVisitor<MoveFinder> {
public:
  explicit MoveFinder(const VarDecl &Var) : Var(Var) {}
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (Method && Method->getIdentifier() && Method->getName() == "to" &&
        calledOn(Call->getImplicitObjectArgument()) == &Var &&
        !(Call->getNumArgs() && mentionsCPU(Call->getArg(0))))
      Found = true;
    return !Found;
  }
  bool Found = false;

private:
  const VarDecl &Var;
};

bool isMovedWithin(const VarDecl &Var, llvm::ArrayRef<Decl *> Roots) {
  MoveFinder Finder(Var);
  for (Decl *Root : Roots)
    if (!Finder.TraverseDecl(Root) || Finder.Found)
      return true;
  return Finder.Found;
}

/// An empty holder (`Linear fc{nullptr}`), a null shared_ptr, or another
/// variable's module (`auto alias = net;`): nothing new to move.
bool createsNoNewModule(const VarDecl &Var, const ModuleType &Type) {
  const Expr *Init = Var.getInit();
  if (!Init)
    return Type.Handle == ModuleHandle::SharedPtr;
  const Expr *Inner = ignoreConversions(Init);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Inner)) {
    if (Construct->getNumArgs() == 1 && ignoreConversions(Construct->getArg(0))->getType()->isNullPtrType())
      return true;
    if (Construct->getNumArgs() == 0)
      return Type.Handle == ModuleHandle::SharedPtr;
    if (Construct->getNumArgs() == 1)
      Inner = ignoreConversions(Construct->getArg(0));
  }
  if (Inner->getType()->isNullPtrType())
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Inner->IgnoreParenImpCasts()))
    return isa<VarDecl>(Ref->getDecl()); // copies a handle: the same module
  return false;
}

bool isLoadInto(const Stmt *S, const VarDecl &Var) {
  const auto *E = dyn_cast<Expr>(S);
  const auto *Call = E ? dyn_cast<CallExpr>(E->IgnoreImplicit()) : nullptr;
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  if (!F || !F->getIdentifier() || F->getName() != "load" || Call->getNumArgs() < 1 ||
      F->getQualifiedNameAsString() != "torch::load")
    return false;
  return calledOn(Call->getArg(0)) == &Var;
}

/// `const Net net`, `const auto holder = Linear(...)`, `std::shared_ptr<const Net>`:
/// the module is reached as const, and Module::to() is not a const member.
bool reachedAsConst(const VarDecl &Var, const ModuleType &Type) {
  QualType T = Var.getType().getNonReferenceType();
  if (Type.Handle != ModuleHandle::SharedPtr)
    return T.isConstQualified();
  const auto *Pointer = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  return Pointer && Pointer->getTemplateArgs().size() > 0 &&
         Pointer->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
         Pointer->getTemplateArgs()[0].getAsType().isConstQualified();
}

std::string moveStatement(const VarDecl &Var, const ModuleType &Type, llvm::StringRef Device) {
  llvm::StringRef Access = Type.Handle == ModuleHandle::Object ? "." : "->";
  return (Var.getName() + Access + "to(" + Device + ");").str();
}

/// `Net net; ... int main() {` — a global is moved at the start of main().
void placeGlobal(MigrationContext &Ctx, const VarDecl &Var, const ModuleType &Type,
                 llvm::StringRef Rule) {
  const FunctionDecl *Main = nullptr;
  for (Decl *D : Ctx.ast().getTraversalScope())
    if (const auto *F = dyn_cast<FunctionDecl>(D); F && F->isMain() && F->hasBody())
      Main = F;
  const auto *Body = Main ? dyn_cast<CompoundStmt>(Main->getBody()) : nullptr;
  if (!Body || !Ctx.sources().isBeforeInTranslationUnit(Var.getEndLoc(), Body->getBeginLoc()) ||
      !Ctx.isRewritable(Body->getSourceRange())) {
    Ctx.report(Var.getLocation(), Finding::Level::Warning,
               "global module '" + Var.getName().str() +
                   "' is not moved: no main() after it in this file to move it in",
               Rule);
    return;
  }
  std::string Indent = Body->body_empty() ? "  " : Ctx.indentationOf(Body->body_front()->getBeginLoc());
  Ctx.insert(Ctx.offsetAfterToken(Body->getLBracLoc()),
             "\n" + Indent + moveStatement(Var, Type, Ctx.deviceAt(*Body)), Rule);
}

} // namespace

void placeModuleVariable(MigrationContext &Ctx, const VarDecl &Var, const ModuleType &Type,
                         llvm::StringRef Rule) {
  if (isa<ParmVarDecl>(Var) || Var.isStaticDataMember() || isInsideModuleMember(&Var) ||
      createsNoNewModule(Var, Type) || !Ctx.rewritableOrReported(Var.getSourceRange(), Rule) ||
      Ctx.isKeptOnCpu(Var.getBeginLoc()))
    return;
  if (reachedAsConst(Var, Type)) {
    Ctx.report(Var.getLocation(), Finding::Level::Warning,
               "module '" + Var.getName().str() +
                   "' is const, and Module::to() changes it: not moved (drop the const, or "
                   "move the module before it becomes const)",
               Rule);
    return;
  }

  if (!Var.hasLocalStorage()) {
    if (Var.getDeclContext()->isFileContext() &&
        !isMovedWithin(Var, Ctx.ast().getTraversalScope()))
      placeGlobal(Ctx, Var, Type, Rule);
    return;
  }

  // The declaration statement must sit directly in a block to put a statement after it.
  auto [Declaration, Block] = Ctx.declarationInBlock(Var);
  if (!Block)
    return;

  const auto *Function = dyn_cast_or_null<FunctionDecl>(Var.getParentFunctionOrMethod());
  Decl *Scope = Function ? const_cast<FunctionDecl *>(Function) : nullptr;
  if (Scope && isMovedWithin(Var, Scope))
    return;

  // Loading a checkpoint replaces the parameters with CPU tensors: move after the load.
  const Stmt *After = Declaration;
  bool Seen = false;
  for (const Stmt *S : Block->body()) {
    if (S == Declaration)
      Seen = true;
    else if (Seen && isLoadInto(S, Var))
      After = S;
  }
  if (After == Declaration && Ctx.registerInstead(Var))
    return;
  if (!Ctx.isRewritable(After->getSourceRange()))
    return;
  unsigned Offset = Ctx.offsetAfterStatement(*After);
  Ctx.insert(Offset, "\n" + Ctx.indentationOf(Declaration->getBeginLoc()) +
                         moveStatement(Var, Type, Ctx.deviceAt(Var)), Rule);
}

void ModuleVariableRule::registerMatchers(MatchFinder &Finder) {
  // Spelled-in-source traversal skips template instantiations: a template is
  // rewritten once, not once per instantiation.
  Finder.addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               varDecl(isExpansionInMainFile(), holdsModule()).bind("var")),
      this);
}

void ModuleVariableRule::check(const MatchFinder::MatchResult &Result) {
  const auto *Var = Result.Nodes.getNodeAs<VarDecl>("var");
  ModuleType Type = classifyModuleType(Var->getType());
  if (Type.Class && handles(*Type.Class))
    placeModuleVariable(Ctx, *Var, Type, name());
}

} // namespace todevice
