#include "ModulePlacement.h"
#include "facts/Matchers.h"
#include "ModuleMoves.h"
#include "facts/PerSampleCode.h"
#include "compat/LlvmCompat.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <functional>

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

/// An empty holder (`Linear fc{nullptr}`), a null shared_ptr, or another
/// variable's module (`auto alias = net;`): nothing new to move.
bool createsNoNewModule(const VarDecl &Var, const ModuleType &Type) {
  const Expr *Init = Var.getInit();
  if (!Init)
    return Type.Handle == ModuleHandle::SharedPtr;
  const Expr *Inner = ignoreConversions(Init);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Inner)) {
    if (Construct->getNumArgs() == 1 &&
        ignoreConversions(Construct->getArg(0))->getType()->isNullPtrType())
      return true;
    if (Construct->getNumArgs() == 0)
      return Type.Handle == ModuleHandle::SharedPtr;
    if (Construct->getNumArgs() == 1)
      Inner = ignoreConversions(Construct->getArg(0));
  }
  if (Inner->getType()->isNullPtrType())
    return true;
  // Copies another variable's handle (`auto alias = net;`): the same module. A
  // variable of another type is a constructor argument (`Net net(n);`).
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Inner->IgnoreParenImpCasts()))
    return isa<VarDecl>(Ref->getDecl()) &&
           classifyModuleType(Ref->getType()).Handle != ModuleHandle::None;
  return false;
}

bool isLoadInto(const Stmt *S, const ModuleAccess &Module) {
  const auto *E = dyn_cast<Expr>(S);
  const auto *Call = E ? dyn_cast<CallExpr>(E->IgnoreImplicit()) : nullptr;
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  if (!F || Call->getNumArgs() < 1 || !isNamed(F, "torch::load"))
    return false;
  return calledOn(Call->getArg(0)) == Module;
}

/// True if `Var`'s module leaves its function to be placed elsewhere: it is
/// returned (`return network;` from a factory: the caller moves what it
/// receives), or added to another module (`seq->push_back(block)`,
/// `register_module("b", block)`: it moves with its parent). Moving it where it
/// is declared would move a module that is often still empty, and twice.
bool isHandedOn(const VarDecl &Var) {
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Var.getParentFunctionOrMethod());
  if (!Function || !Function->hasBody())
    return false;
  auto NamesVar = [&](const Expr *E) {
    const auto *Ref =
        E ? dyn_cast<DeclRefExpr>(ignoreConversions(E)->IgnoreParenImpCasts()) : nullptr;
    return Ref && Ref->getDecl() == &Var;
  };
  bool Found = false;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || Found || isa<LambdaExpr>(S))
      return;
    if (const auto *Return = dyn_cast<ReturnStmt>(S))
      Found = NamesVar(Return->getRetValue());
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S)) {
      const CXXMethodDecl *Method = Call->getMethodDecl();
      if (Method && Method->getIdentifier() &&
          (Method->getName() == "push_back" || Method->getName() == "register_module") &&
          isOrDerivesFrom(Method->getParent(), "torch::nn::Module"))
        Found = llvm::any_of(Call->arguments(), NamesVar);
    }
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(Function->getBody());
  return Found;
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

/// `Net net; ... int main() {` — a global is moved at the start of main().
void placeGlobal(MigrationContext &Ctx, const VarDecl &Var, llvm::ArrayRef<ModuleToMove> Modules,
                 const ModuleVariableRule &Rule) {
  const FunctionDecl *Main = nullptr;
  for (Decl *D : Ctx.ast().getTraversalScope())
    if (const auto *F = dyn_cast<FunctionDecl>(D); F && F->isMain() && F->hasBody())
      Main = F;
  const auto *Body = Main ? dyn_cast<CompoundStmt>(Main->getBody()) : nullptr;
  if (!Body || !Ctx.sources().isBeforeInTranslationUnit(Var.getEndLoc(), Body->getBeginLoc()) ||
      !Ctx.isWrittenInFile(Body->getSourceRange())) {
    Rule.diag(Var.getLocation(),
              "global module '" + Var.getName().str() +
                  "' is not moved: no main() after it in this file to move it in")
        << Var.getSourceRange();
    return;
  }
  std::string Indent =
      Body->body_empty() ? "  " : Ctx.indentationOf(Body->body_front()->getBeginLoc());
  Rule.rewrite(Var.getSourceRange(),
               Rule.insertion(Ctx.offsetAfterToken(Body->getLBracLoc()),
                              moveStatements(Ctx, Modules, Ctx.device().at(*Body), Indent)));
}

/// Places `Modules`, all held by `Var`, right after `Var` exists (after a
/// following `torch::load` into one of them, if any).
void placeAfterDeclaration(MigrationContext &Ctx, const VarDecl &Var,
                           std::vector<ModuleToMove> Modules, const ModuleVariableRule &Rule) {
  if (!Var.hasLocalStorage()) {
    llvm::erase_if(Modules, [&](const ModuleToMove &M) {
      return isMovedWithin(M.Access, Ctx.ast().getTraversalScope());
    });
    if (Var.getDeclContext()->isFileContext() && !Modules.empty())
      placeGlobal(Ctx, Var, Modules, Rule);
    return;
  }

  // The declaration statement must sit directly in a block to put a statement after it.
  auto [Declaration, Block] = Ctx.declarationInBlock(Var);
  if (!Block)
    return;

  if (const auto *Function = dyn_cast_or_null<FunctionDecl>(Var.getParentFunctionOrMethod()))
    llvm::erase_if(Modules, [&](const ModuleToMove &M) {
      return isMovedWithin(M.Access, const_cast<FunctionDecl *>(Function));
    });
  if (Modules.empty())
    return;

  // Loading a checkpoint replaces the parameters with CPU tensors: move after the load.
  const Stmt *After = Declaration;
  bool Seen = false;
  for (const Stmt *S : Block->body()) {
    if (S == Declaration)
      Seen = true;
    else if (Seen &&
             llvm::any_of(Modules, [&](const ModuleToMove &M) { return isLoadInto(S, M.Access); }))
      After = S;
  }
  if (After == Declaration && Modules.front().Access.Fields.empty() &&
      Ctx.registry().registerInstead(Var))
    return;
  // No place for a statement after one a macro wrote; when the macro wrote the
  // variable too, the move is refused with a report where the macro is used.
  if (!Ctx.isWrittenInFile(After->getSourceRange()) && !Ctx.isInMacroBody(Var.getSourceRange()))
    return;
  Rule.rewrite(Var.getSourceRange(),
               Rule.insertion(Ctx.offsetAfterStatement(*After),
                              moveStatements(Ctx, Modules, Ctx.device().at(Var),
                                             Ctx.indentationOf(Declaration->getBeginLoc()))));
}

/// The declaration (a function, a variable) whose code holds `E`.
const Decl *enclosingDecl(ASTContext &Ast, const Expr &E) {
  DynTypedNode Node = DynTypedNode::create(E);
  while (true) {
    DynTypedNodeList Parents = Ast.getParents(Node);
    if (Parents.empty())
      return nullptr;
    if (const auto *D = Parents[0].get<Decl>(); D && !isa<VarDecl>(D))
      return D;
    Node = Parents[0];
  }
}

/// Where `new Module(...)` is stored: the variable it initialises or the
/// left side of the assignment it is the right side of (as written).
const Expr *assignedTo(ASTContext &Ast, const CXXNewExpr &New, const VarDecl *&Var) {
  const Expr *Current = &New;
  while (true) {
    DynTypedNodeList Parents = Ast.getParents(*Current);
    if (Parents.empty())
      return nullptr;
    if ((Var = const_cast<VarDecl *>(Parents[0].get<VarDecl>())))
      return nullptr;
    if (const auto *Op = Parents[0].get<BinaryOperator>())
      return Op->getOpcode() == BO_Assign && Op->getRHS()->IgnoreParenImpCasts() == &New
                 ? Op->getLHS()
                 : nullptr;
    const auto *Wrapper = Parents[0].get<Expr>();
    if (!Wrapper || !isa<ImplicitCastExpr, ParenExpr, ExprWithCleanups>(Wrapper))
      return nullptr;
    Current = Wrapper;
  }
}

} // namespace

void placeNewModule(MigrationContext &Ctx, const CXXNewExpr &New, const ModuleVariableRule &Rule) {
  ModuleType Type = classifyModuleType(New.getAllocatedType());
  if (New.isArray() || !Type.Class || !Rule.handles(*Type.Class) ||
      Type.Handle == ModuleHandle::SharedPtr || Ctx.isPerSampleCode(New))
    return;
  const Decl *Code = enclosingDecl(Ctx.ast(), New);
  if (!Code || isInsideModuleMember(Code) ||
      (isa<CXXMethodDecl>(Code) &&
       isOrDerivesFrom(cast<CXXMethodDecl>(Code)->getParent(), "torch::nn::Module")))
    return; // a submodule, moved with its parent
  const VarDecl *Var = nullptr;
  const Expr *Target = assignedTo(Ctx.ast(), New, Var);
  std::string Pointer = Var      ? Var->getName().str()
                        : Target ? Ctx.text(Target->getSourceRange()).str()
                                 : "";
  auto [Statement, Block] = Ctx.statementInBlock(New);
  if (Pointer.empty() || !Statement || !Ctx.isWrittenInFile(Statement->getSourceRange()))
    return;
  // A holder made with new (`Model *m = new Model(...)`) is reached as (*m)->.
  const std::string Object = Type.Handle == ModuleHandle::Holder ? "(*" + Pointer + ")" : Pointer;
  bool Seen = false;
  for (const Stmt *S : Block->body()) { // moved already (by hand, or by an earlier run)
    if (Seen && compat::startsWith(Ctx.text(S->getSourceRange()), Object + "->to("))
      return;
    Seen |= S == Statement;
  }
  std::string Text = "\n" + Ctx.indentationOf(Statement->getBeginLoc()) + Object + "->to(" +
                     Ctx.device().at(*Statement) + ");";
  if (Ctx.options().Distributed && !isLossModule(Type.Class)) {
    Ctx.device().requireInclude("todevice/distributed.h");
    Text += "\n" + Ctx.indentationOf(Statement->getBeginLoc()) +
            "todevice::distributed::broadcast_parameters(*" + Object + ");";
  }
  Rule.rewrite(New.getSourceRange(), Rule.insertion(Ctx.offsetAfterStatement(*Statement), Text));
}

void placeModuleMembers(MigrationContext &Ctx, const VarDecl &Var, const ModuleVariableRule &Rule) {
  const CXXRecordDecl *Record = Var.getType()->getAsCXXRecordDecl();
  if (isa<ParmVarDecl>(Var) || Var.getType()->isReferenceType() || Var.isStaticDataMember() ||
      !isUserRecord(Record) || isInsideModuleMember(&Var) || Ctx.isPerSampleCode(Var))
    return;
  std::vector<ModuleToMove> Modules;
  ModuleAccess Holder;
  Holder.Var = &Var;
  collectModuleMembers(Ctx, *Record, Holder, Rule, Modules);
  if (Modules.empty())
    return;
  if (Var.getType().isConstQualified()) {
    Rule.diag(Var.getLocation(),
              "'" + Var.getName().str() +
                  "' holds modules but is const, and Module::to() changes them: not moved")
        << Var.getSourceRange();
    return;
  }
  placeAfterDeclaration(Ctx, Var, std::move(Modules), Rule);
}

void placeModuleVariable(MigrationContext &Ctx, const VarDecl &Var, const ModuleType &Type,
                         const ModuleVariableRule &Rule) {
  if (isa<ParmVarDecl>(Var) || Var.isStaticDataMember() || isInsideModuleMember(&Var) ||
      createsNoNewModule(Var, Type) || isHandedOn(Var))
    return;
  if (reachedAsConst(Var, Type)) {
    Rule.diag(Var.getLocation(),
              "module '" + Var.getName().str() +
                  "' is const, and Module::to() changes it: not moved (drop the const, or "
                  "move the module before it becomes const)")
        << Var.getSourceRange();
    return;
  }

  ModuleAccess Module;
  Module.Var = &Var;
  placeAfterDeclaration(Ctx, Var, {ModuleToMove{Module, Type.Handle, isLossModule(Type.Class)}},
                        Rule);
}

void ModuleVariableRule::registerMatchers(MatchFinder *Finder) {
  // Spelled-in-source traversal skips template instantiations: a template is
  // rewritten once, not once per instantiation.
  Finder->addMatcher(traverse(TK_IgnoreUnlessSpelledInSource,
                              varDecl(isExpansionInFile(Ctx.file()), holdsModule()).bind("var")),
                     this);
  // A plain struct holding modules (`struct Holder { nn::Linear proj{2, 2}; }`).
  Finder->addMatcher(traverse(TK_IgnoreUnlessSpelledInSource,
                              varDecl(isExpansionInFile(Ctx.file()), unless(holdsModule()),
                                      hasType(cxxRecordDecl(hasDefinition())))
                                  .bind("holder")),
                     this);
  // A module made with new (`model = new Model(...)`), held through a pointer.
  Finder->addMatcher(traverse(TK_IgnoreUnlessSpelledInSource,
                              cxxNewExpr(isExpansionInFile(Ctx.file())).bind("new")),
                     this);
  // A plain class's constructor that builds module members (ConstructorPlacement.cpp).
  Finder->addMatcher(
      traverse(
          TK_IgnoreUnlessSpelledInSource,
          cxxConstructorDecl(isExpansionInFile(Ctx.file()), isDefinition()).bind("constructor")),
      this);
}

void ModuleVariableRule::check(const MatchFinder::MatchResult &Result) {
  if (const auto *New = Result.Nodes.getNodeAs<CXXNewExpr>("new")) {
    placeNewModule(Ctx, *New, *this);
    return;
  }
  if (const auto *Constructor = Result.Nodes.getNodeAs<CXXConstructorDecl>("constructor")) {
    placeMembersInConstructor(Ctx, *Constructor, *this);
    return;
  }
  if (const auto *Holder = Result.Nodes.getNodeAs<VarDecl>("holder")) {
    placeModuleMembers(Ctx, *Holder, *this);
    return;
  }
  const auto *Var = Result.Nodes.getNodeAs<VarDecl>("var");
  ModuleType Type = classifyModuleType(Var->getType());
  if (Type.Class && handles(*Type.Class))
    placeModuleVariable(Ctx, *Var, Type, *this);
}

} // namespace to_device_migrate
