#include "ModulePlacement.h"
#include "Matchers.h"
#include "PerSampleCode.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

/// A module reached from a variable: the variable itself (`net`), or a member
/// of a plain struct it holds (`h.proj`, `h.inner.net`).
struct ModuleAccess {
  const VarDecl *Var = nullptr;
  llvm::SmallVector<const FieldDecl *, 2> Fields;
  bool operator==(const ModuleAccess &Other) const {
    return Var == Other.Var && Fields == Other.Fields;
  }
  std::string spelling() const {
    std::string Text = Var->getName().str();
    for (const FieldDecl *Field : Fields)
      Text += "." + Field->getName().str();
    return Text;
  }
};

/// `net` in `net->f(...)`, `net.f(...)`, `(*net).f(...)`, `h.proj->f(...)`:
/// the module a call is made on.
ModuleAccess calledOn(const Expr *Object) {
  if (!Object)
    return {};
  Object = Object->IgnoreParenImpCasts();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Object);
      Op && (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star) && Op->getNumArgs())
    Object = Op->getArg(0)->IgnoreParenImpCasts();
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Object)) // holder.get()/ptr()
    Object = Member->getImplicitObjectArgument()->IgnoreParenImpCasts();
  ModuleAccess Access;
  while (const auto *Member = dyn_cast<MemberExpr>(Object)) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Field || Member->isArrow())
      return {};
    Access.Fields.insert(Access.Fields.begin(), Field);
    Object = Member->getBase()->IgnoreParenImpCasts();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Object);
  Access.Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Access.Var ? Access : ModuleAccess();
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

/// Finds `var->to(<not the CPU>)` (or `h.member->to(...)`) anywhere below the
/// traversal root.
class MoveFinder : public RecursiveASTVisitor<MoveFinder> {
public:
  explicit MoveFinder(const ModuleAccess &Module) : Module(Module) {}
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (Method && Method->getIdentifier() && Method->getName() == "to" &&
        calledOn(Call->getImplicitObjectArgument()) == Module &&
        !(Call->getNumArgs() && mentionsCPU(Call->getArg(0))))
      Found = true;
    return !Found;
  }
  bool Found = false;

private:
  const ModuleAccess &Module;
};

bool isMovedWithin(const ModuleAccess &Module, llvm::ArrayRef<Decl *> Roots) {
  MoveFinder Finder(Module);
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

/// A module to move and how it is held.
struct ModuleToMove {
  ModuleAccess Access;
  ModuleHandle Handle;
  bool IsLoss = false;
};

/// `net->to(device);` for each module; with --distributed, models (not
/// losses) then get rank 0's parameters: `todevice::distributed::broadcast_parameters(*net);`.
std::string moveStatements(MigrationContext &Ctx, llvm::ArrayRef<ModuleToMove> Modules,
                           llvm::StringRef Device, llvm::StringRef Indent) {
  std::string Text;
  for (const ModuleToMove &Module : Modules) {
    const bool Object = Module.Handle == ModuleHandle::Object;
    Text += ("\n" + Indent + Module.Access.spelling() + (Object ? "." : "->") + "to(" + Device +
             ");")
                .str();
    if (Ctx.options().Distributed && !Module.IsLoss) {
      Ctx.requireInclude("todevice/distributed.h");
      Text += ("\n" + Indent + "todevice::distributed::broadcast_parameters(" +
               (Object ? "" : "*") + Module.Access.spelling() + ");")
                  .str();
    }
  }
  return Text;
}

/// `Net net; ... int main() {` — a global is moved at the start of main().
void placeGlobal(MigrationContext &Ctx, const VarDecl &Var, llvm::ArrayRef<ModuleToMove> Modules,
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
             moveStatements(Ctx, Modules, Ctx.deviceAt(*Body), Indent), Rule);
}

/// Places `Modules`, all held by `Var`, right after `Var` exists (after a
/// following `torch::load` into one of them, if any).
void placeAfterDeclaration(MigrationContext &Ctx, const VarDecl &Var,
                           std::vector<ModuleToMove> Modules, llvm::StringRef Rule) {
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
    else if (Seen && llvm::any_of(Modules, [&](const ModuleToMove &M) { return isLoadInto(S, M.Access); }))
      After = S;
  }
  if (After == Declaration && Modules.front().Access.Fields.empty() && Ctx.registerInstead(Var))
    return;
  if (!Ctx.isRewritable(After->getSourceRange()))
    return;
  Ctx.insert(Ctx.offsetAfterStatement(*After),
             moveStatements(Ctx, Modules, Ctx.deviceAt(Var), Ctx.indentationOf(Declaration->getBeginLoc())),
             Rule);
}

/// A plain (non-module) struct's own records, not a library's.
bool isUserRecord(const CXXRecordDecl *Record) {
  return Record && Record->hasDefinition() && !Record->isLambda() && !isLibraryDecl(Record) &&
         !isPerSampleClass(Record) && !isOrDerivesFrom(Record, "torch::nn::Module");
}

/// An empty handle (`Linear proj{nullptr}`, a shared_ptr set later): it can only
/// be moved once something assigns it, which the tool does not follow.
bool mayStartEmpty(const FieldDecl &Field, ModuleHandle Handle) {
  const Expr *Init = Field.getInClassInitializer();
  if (Handle == ModuleHandle::SharedPtr && !Init)
    return true;
  if (!Init || Handle == ModuleHandle::Object)
    return false;
  const Expr *Inner = ignoreConversions(Init);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Inner);
      Construct && Construct->getNumArgs() == 1)
    Inner = ignoreConversions(Construct->getArg(0));
  return Inner->getType()->isNullPtrType();
}

/// The module members of a plain struct (and of plain structs it holds by value).
void collectModuleMembers(MigrationContext &Ctx, const CXXRecordDecl &Record, ModuleAccess Path,
                          const ModuleVariableRule &Rule, std::vector<ModuleToMove> &Out,
                          int Depth = 0) {
  if (Depth > 3)
    return;
  for (const FieldDecl *Field : Record.fields()) {
    ModuleAccess Access = Path;
    Access.Fields.push_back(Field);
    ModuleType Type = classifyModuleType(Field->getType());
    if (Type.Handle == ModuleHandle::None) {
      if (const CXXRecordDecl *Inner = Field->getType()->getAsCXXRecordDecl();
          Inner && isUserRecord(Inner) && !Field->getType()->isReferenceType())
        collectModuleMembers(Ctx, *Inner, Access, Rule, Out, Depth + 1);
      continue;
    }
    if (!Type.Class || !Rule.handles(*Type.Class) || Field->getType().isConstQualified())
      continue;
    if (mayStartEmpty(*Field, Type.Handle)) {
      Ctx.report(Field->getLocation(), Finding::Level::Warning,
                 "module member '" + Field->getName().str() +
                     "' may be empty when its object is created, and is not moved there; move "
                     "it with ->to(device) where it is assigned",
                 Rule.name());
      continue;
    }
    Out.push_back({Access, Type.Handle, isLossModule(Type.Class)});
  }
}

} // namespace

void placeModuleMembers(MigrationContext &Ctx, const VarDecl &Var, const ModuleVariableRule &Rule) {
  const CXXRecordDecl *Record = Var.getType()->getAsCXXRecordDecl();
  if (isa<ParmVarDecl>(Var) || Var.getType()->isReferenceType() || Var.isStaticDataMember() ||
      !isUserRecord(Record) || isInsideModuleMember(&Var) || Ctx.isPerSampleCode(Var))
    return;
  std::vector<ModuleToMove> Modules;
  collectModuleMembers(Ctx, *Record, ModuleAccess{&Var, {}}, Rule, Modules);
  if (Modules.empty() || !Ctx.mayRewrite(Var.getSourceRange(), Rule.name()))
    return;
  if (Var.getType().isConstQualified()) {
    Ctx.report(Var.getLocation(), Finding::Level::Warning,
               "'" + Var.getName().str() +
                   "' holds modules but is const, and Module::to() changes them: not moved",
               Rule.name());
    return;
  }
  placeAfterDeclaration(Ctx, Var, std::move(Modules), Rule.name());
}

void placeModuleVariable(MigrationContext &Ctx, const VarDecl &Var, const ModuleType &Type,
                         llvm::StringRef Rule) {
  if (isa<ParmVarDecl>(Var) || Var.isStaticDataMember() || isInsideModuleMember(&Var) ||
      createsNoNewModule(Var, Type) || !Ctx.mayRewrite(Var.getSourceRange(), Rule))
    return;
  if (reachedAsConst(Var, Type)) {
    Ctx.report(Var.getLocation(), Finding::Level::Warning,
               "module '" + Var.getName().str() +
                   "' is const, and Module::to() changes it: not moved (drop the const, or "
                   "move the module before it becomes const)",
               Rule);
    return;
  }

  placeAfterDeclaration(Ctx, Var,
                        {ModuleToMove{ModuleAccess{&Var, {}}, Type.Handle, isLossModule(Type.Class)}},
                        Rule);
}

void ModuleVariableRule::registerMatchers(MatchFinder &Finder) {
  // Spelled-in-source traversal skips template instantiations: a template is
  // rewritten once, not once per instantiation.
  Finder.addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               varDecl(isExpansionInMainFile(), holdsModule()).bind("var")),
      this);
  // A plain struct holding modules (`struct Holder { nn::Linear proj{2, 2}; }`).
  Finder.addMatcher(traverse(TK_IgnoreUnlessSpelledInSource,
                             varDecl(isExpansionInMainFile(), unless(holdsModule()),
                                     hasType(cxxRecordDecl(hasDefinition())))
                                 .bind("holder")),
                    this);
}

void ModuleVariableRule::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Holder = Result.Nodes.getNodeAs<VarDecl>("holder")) {
    placeModuleMembers(Ctx, *Holder, *this);
    return;
  }
  const auto *Var = Result.Nodes.getNodeAs<VarDecl>("var");
  ModuleType Type = classifyModuleType(Var->getType());
  if (Type.Class && handles(*Type.Class))
    placeModuleVariable(Ctx, *Var, Type, name());
}

} // namespace to_device_migrate
