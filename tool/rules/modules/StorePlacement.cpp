// Each store of the module inventory, placed where the module is complete:
//   auto net = std::make_unique<Net>();     ->  ... net->to(device);
//   void Trainer::Initialize() { net = Net(cfg); torch::load(net, path); }
//                                            ->  ... torch::load(net, path); net->to(device); }
//   module_ = torch::jit::load(path);        ->  ... module_.to(device);
//   for (...) layers.push_back(Linear(...)); ->  ... for (auto &module : layers) { module->to(device); }
#include "ModuleMoves.h"
#include "ModulePlacement.h"
#include "compat/LlvmCompat.h"
#include "facts/Repetition.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

#include <functional>

using namespace clang;

namespace to_device_migrate {
namespace {

/// An expression that reaches an object without side effects, so that it can
/// be written again after the store: `net`, `this->net`, `agents[i].net`, `*p`.
bool isPlainReach(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
    return isPlainReach(Temporary->getSubExpr());
  if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
    return isPlainReach(Bind->getSubExpr());
  // `heads["score"]`: the key converted to the map's key type.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
      Construct && !isa<CXXTemporaryObjectExpr>(Construct))
    return llvm::all_of(Construct->arguments(), isPlainReach);
  if (isa<DeclRefExpr, CXXThisExpr, IntegerLiteral, StringLiteral, CharacterLiteral,
          FloatingLiteral, CXXBoolLiteralExpr, CXXDefaultArgExpr>(E))
    return true;
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return isPlainReach(Member->getBase());
  if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
    return isPlainReach(Subscript->getBase()) && isPlainReach(Subscript->getIdx());
  if (const auto *Deref = dyn_cast<UnaryOperator>(E))
    return Deref->getOpcode() == UO_Deref && isPlainReach(Deref->getSubExpr());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return (Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Star ||
            Op->getOperator() == OO_Arrow) &&
           llvm::all_of(Op->arguments(), isPlainReach);
  return false;
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
bool reachedAsConst(const VarDecl &Var, const ModuleSlotType &Type) {
  QualType T = Var.getType().getNonReferenceType();
  if (Type.Pointer)
    return T->getPointeeType().isConstQualified();
  if (Type.Element.Handle != ModuleHandle::SharedPtr &&
      Type.Element.Handle != ModuleHandle::UniquePtr)
    return T.isConstQualified();
  const auto *Pointer = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  return Pointer && Pointer->getTemplateArgs().size() > 0 &&
         Pointer->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
         Pointer->getTemplateArgs()[0].getAsType().isConstQualified();
}

/// How the module of `Store` is written where it is moved; "" if it cannot be.
std::string spellingOf(MigrationContext &Ctx, const ModuleStore &Store) {
  if (Store.StoreKind == ModuleStore::Kind::Declaration)
    return Store.Var->getName().str();
  if (Store.Target && isPlainReach(Store.Target) &&
      Ctx.isWrittenInFile(Store.Target->getSourceRange()))
    return Ctx.text(Store.Target->getSourceRange()).str();
  return "";
}

/// The module object `Target` is, or is a part of (`net->stem` is part of `net`).
ModuleAccess ownerOf(const Expr *Target) {
  for (const Expr *E = Target; E;) {
    if (ModuleAccess Access = calledOn(E); !Access.empty())
      return Access;
    const auto *Member = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    if (!Member)
      return {};
    E = Member->getBase();
  }
  return {};
}

/// The length of an array made with `new Net[n]`, as written ("" otherwise).
std::string arrayLengthOf(MigrationContext &Ctx, const Expr *Value) {
  const auto *New = Value ? dyn_cast<CXXNewExpr>(ignoreConversions(Value)->IgnoreParenImpCasts())
                          : nullptr;
  if (!New || !New->isArray())
    return "";
  const Expr *Size = *New->getArraySize();
  return Size && isPlainReach(Size) ? "(" + Ctx.text(Size->getSourceRange()).str() + ")" : "";
}

/// The member of the module's own class that `Store` stores into: the
/// member itself, or the container an element of which it assigns
/// (`heads[i] = Linear(...)`); null for anything else.
const FieldDecl *memberStoredInto(const ModuleStore &Store) {
  const ModuleAccess Access = Store.Target ? storedInto(Store.Target) : Store.Access;
  return !Access.Var && Access.Fields.size() == 1 ? Access.Fields.front() : nullptr;
}

} // namespace

void placeStore(MigrationContext &Ctx, const ModuleStore &Store, const ModuleVariableRule &Rule,
                std::vector<InitialisedRange> &Initialised) {
  // A module the function was handed, stored into a member (a setter): the
  // object holds it from then on and places it (no copy if it is there already).
  const bool Handed = Store.Stored == StoredModule::Existing && !Store.Access.Fields.empty() &&
                      namesParameter(Store.Value);
  if ((Store.Stored != StoredModule::New && !Handed) || !Rule.handles(Store.Type.Element.Class))
    return;
  const SourceLocation Loc = Store.Var ? Store.Var->getLocation() : Store.Site->getBeginLoc();
  const SourceRange SiteRange =
      Store.Var ? Store.Var->getSourceRange() : Store.Site->getSourceRange();
  if (!Ctx.isExpansionInFile(Loc) ||
      (Store.Var ? Ctx.isPerSampleCode(*Store.Var) : Ctx.isPerSampleCode(*Store.Site)))
    return;
  if (!exposesModuleInterface(Store.Type.Element.Class)) {
    Rule.diag(Loc, "'" + Store.Type.Element.Class->getNameAsString() +
                       "' derives from torch::nn::Module privately: code outside it cannot "
                       "call to(), so it is not moved (its parameters and buffers stay "
                       "where they are made); derive publicly to move it")
        << SiteRange;
    return;
  }
  const FunctionDecl *Function =
      Store.Var ? dyn_cast_or_null<FunctionDecl>(Store.Var->getParentFunctionOrMethod())
                : functionOf(Ctx.ast(), *Store.Site);
  ModuleToMove Module{spellingOf(Ctx, Store), Store.Type, isLossModule(Store.Type.Element.Class),
                      arrayLengthOf(Ctx, Store.Value)};
  if (Store.Type.Pointer && Store.Value && !Module.ArrayLength.empty())
    Module.Type.Pointer = false; // each element is reached as `nets[i]`

  // Inside a module's own code, submodules are its business, but for members
  // its parent does not register: Module::to() does not reach them.
  std::string Note;
  if (Function && isInsideModuleMember(Function)) {
    const FieldDecl *Field = memberStoredInto(Store);
    if (!Field || isRegisteredSubmodule(*Field))
      return;
    Note = "module member '" + Field->getName().str() + "' of '" +
           cast<RecordDecl>(Field->getParent())->getNameAsString() +
           "' is not registered with register_module(): Module::to() of its parent does not "
           "move it, so it is moved here, where it is built";
  }
  if (Store.StoreKind == ModuleStore::Kind::Declaration) {
    const VarDecl &Var = *Store.Var;
    if (Var.isStaticDataMember())
      return; // reached as `Class::member`: its class's business
    if (Var.getDeclContext()->isFileContext()) {
      placeGlobal(Ctx, Var, {ModuleMember{ModuleAccess{&Var, {}}, Module.Type}}, Rule);
      return;
    }
    if (isHandedOn(Var))
      return;

    if (reachedAsConst(Var, Store.Type)) {
      Rule.diag(Var.getLocation(),
                "module '" + Var.getName().str() +
                    "' is const, and Module::to() changes it: not moved (drop the const, or "
                    "move the module before it becomes const)")
          << Var.getSourceRange();
      return;
    }
  }
  // A local model whose weights are only read, to be copied into another.
  if (const VarDecl *Local = Store.Access.Fields.empty() ? Store.Access.Var : nullptr;
      Local && Local->hasLocalStorage() && Function && Function->getBody() &&
      isOnlyReadOnHost(Ctx.ast(), *Local, *Function->getBody())) {
    if (Store.StoreKind == ModuleStore::Kind::Declaration)
      Rule.diag(Local->getLocation(),
                "module '" + Local->getName().str() +
                    "' is only read on the host (its weights are copied into another model): it "
                    "stays on the CPU",
                DiagnosticIDs::Note)
          << Local->getSourceRange();
    return;
  }
  MigrationContext::StatementPlace Place =
      Store.Var ? Ctx.placeOf(*Store.Var) : Ctx.placeOf(*Store.Site);
  if (!Place.Statement || !Function)
    return; // a default argument, a member initialiser: ConstructorPlacement's
  if (Module.Object.empty()) {
    Rule.diag(Loc, "module stored through an expression the tool cannot write again (a call, "
                   "an increment): not moved; move it with ->to(device) after this statement")
        << SiteRange;
    return;
  }
  // Layers appended in a loop are moved once, after it, when nothing in the
  // loop uses them meanwhile.
  if (Store.StoreKind == ModuleStore::Kind::Append && !Store.Access.empty())
    while (const Stmt *Loop = enclosingLoop(Ctx.ast(), *Place.Statement)) {
      if (!initialisesModule(Ctx.ast(), *Loop, Store.Access, moduleCallFacts(Ctx)))
        break;
      MigrationContext::StatementPlace Outer = Ctx.placeOf(*Loop);
      if (!Outer.Statement)
        break;
      Place = Outer;
    }
  if (isMovedIn(Ctx, Function->getBody(), Store.Access, Module.Object, SiteRange.getEnd()))
    return;
  const SourceManager &SM = Ctx.sources();
  // A load into a module, or into part of one (`torch::load(net->stem, p)`),
  // that an earlier store's move already follows.
  const ModuleAccess Loaded =
      Store.StoreKind == ModuleStore::Kind::Load ? ownerOf(Store.Target) : ModuleAccess();
  if (!Loaded.empty() &&
      llvm::any_of(Initialised, [&](const InitialisedRange &Earlier) {
        return Earlier.Access == Loaded &&
               !SM.isBeforeInTranslationUnit(Loc, Earlier.Range.getBegin()) &&
               !SM.isBeforeInTranslationUnit(Earlier.Range.getEnd(), Loc);
      }))
    return;
  const Stmt *Anchor = Place.Statement;
  if (Place.Block)
    Place.Statement = endOfInitialisation(Ctx, *Place.Block, Anchor, Store.Access);
  Initialised.push_back({Store.Access, {Anchor->getBeginLoc(), Place.Statement->getEndLoc()}});
  // --mode=registry: a variable moved right where it is declared is registered instead.
  if (Store.StoreKind == ModuleStore::Kind::Declaration && Place.Statement == Anchor &&
      Place.Block && Note.empty() && !Store.Type.Pointer &&
      Store.Type.Container == ModuleContainer::None &&
      llvm::is_contained({ModuleHandle::Object, ModuleHandle::SharedPtr, ModuleHandle::Holder},
                         Store.Type.Element.Handle) &&
      Ctx.registry().registerInstead(*Store.Var))
    return;
  // No place for a statement after one a macro wrote; when the macro wrote the
  // store too, the move is refused with a report where the macro is used.
  if (!Ctx.isWrittenInFile(Place.Statement->getSourceRange()) && !Ctx.isInMacroBody(SiteRange))
    return;
  const std::string Device = Ctx.device().at(*Place.Statement);
  Rule.insertAfterStatement(SiteRange, Place, [&](llvm::StringRef Indent) {
    return moveStatements(Ctx, {Module}, Device, Indent);
  });
  if (!Note.empty())
    Rule.diag(Loc, Note, DiagnosticIDs::Note) << SiteRange;
}

} // namespace to_device_migrate
