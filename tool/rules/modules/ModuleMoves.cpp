#include "ModuleMoves.h"
#include "ModulePlacement.h"
#include "facts/PerSampleCode.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "engine/Rule.h"

using namespace clang;

namespace to_device_migrate {
namespace {

/// `Object` as the operand of a postfix `.` or `->`: a dereference as
/// written (`*model`, from `torch::load(*model, path)`) in parentheses, or
/// the member access would bind to its pointer (`*model->to(...)`).
std::string postfixOperand(llvm::StringRef Object) {
  const llvm::StringRef Text = Object.ltrim();
  if (!Text.empty() && (Text.front() == '*' || Text.front() == '&'))
    return ("(" + Object + ")").str();
  return Object.str();
}

/// `net->to(device)` for one module spelled `Written`, held as `Handle`
/// (through a pointer when `Pointer`).
std::string moveOf(llvm::StringRef Written, ModuleHandle Handle, bool Pointer,
                   llvm::StringRef Device) {
  const std::string Object = postfixOperand(Written);
  const std::string To = ("to(" + Device + ")").str();
  switch (Handle) {
  case ModuleHandle::Object:
  case ModuleHandle::Script:
    return Object + (Pointer ? "->" : ".") + To;
  case ModuleHandle::AnyModule:
    return Object + (Pointer ? "->" : ".") + "ptr()->" + To;
  default: // a holder or a smart pointer
    return (Pointer ? "(*" + Object + ")" : Object) + "->" + To;
  }
}

/// The module itself (a torch::nn::Module&), for broadcast_parameters().
std::string referenceOf(llvm::StringRef Written, ModuleHandle Handle, bool Pointer) {
  const std::string Object = postfixOperand(Written);
  switch (Handle) {
  case ModuleHandle::Object:
    return (Pointer ? "*" : "") + Object;
  case ModuleHandle::AnyModule:
    return "*" + Object + (Pointer ? "->" : ".") + "ptr()";
  default:
    return (Pointer ? "**" : "*") + Object;
  }
}

/// Does the expression `Text` use the identifier `Name`?
bool namesIdentifier(llvm::StringRef Text, llvm::StringRef Name) {
  auto IsPart = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  for (size_t At = Text.find(Name); At != llvm::StringRef::npos; At = Text.find(Name, At + 1))
    if ((At == 0 || !IsPart(Text[At - 1])) &&
        (At + Name.size() == Text.size() || !IsPart(Text[At + Name.size()])))
      return true;
  return false;
}

} // namespace

std::string moveStatements(MigrationContext &Ctx, llvm::ArrayRef<ModuleToMove> Modules,
                           llvm::StringRef Device, llvm::StringRef Indent) {
  std::string Text;
  for (const ModuleToMove &Module : Modules) {
    const ModuleHandle Handle = Module.Type.Element.Handle;
    const bool Broadcast =
        Ctx.options().Distributed && !Module.IsLoss && !Module.Type.Element.Script;
    if (Broadcast)
      Ctx.device().requireInclude("todevice/distributed.h");
    // What moves one module reached as `Element`, on lines of their own.
    auto Moves = [&](llvm::StringRef Element, bool Pointer, llvm::StringRef At) {
      std::string Out = ("\n" + At + moveOf(Element, Handle, Pointer, Device) + ";").str();
      if (Broadcast)
        Out += ("\n" + At + "todevice::distributed::broadcast_parameters(" +
                referenceOf(Element, Handle, Pointer) + ");")
                   .str();
      return Out;
    };
    const std::string Inner = (Indent + "  ").str();
    // The loop's own variable: `module` unless the loop's range names one.
    auto LoopVariable = [&](llvm::StringRef Preferred) {
      return namesIdentifier(Module.Object, Preferred)
                 ? Ctx.device().freshName(Preferred, ("each_" + Preferred).str())
                 : Preferred.str();
    };
    if (Module.Type.Container != ModuleContainer::None) {
      const std::string Each = LoopVariable("module");
      const std::string Element =
          Module.Type.Container == ModuleContainer::Map ? Each + ".second" : Each;
      Text += ("\n" + Indent + "for (auto &" + Each + " : " + Module.Object + ") {").str() +
              Moves(Element, false, Inner) + ("\n" + Indent + "}").str();
    } else if (!Module.ArrayLength.empty()) {
      const std::string Index = LoopVariable("module_index");
      Text += ("\n" + Indent + "for (size_t " + Index + " = 0; " + Index + " < static_cast<size_t>(" +
               Module.ArrayLength + "); ++" + Index + ") {")
                  .str() +
              Moves(Module.Object + "[" + Index + "]", false, Inner) + ("\n" + Indent + "}").str();
    } else {
      Text += Moves(Module.Object, Module.Type.Pointer, Indent);
    }
  }
  return Text;
}

namespace {

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

/// Finds a move of a module to a device (`net->to(device)`, `h.net->to(...)`,
/// `for (auto &m : layers) m->to(device);`) below the traversal root. In a
/// template, `member->to(...)` is a dependent call: its callee is a
/// CXXDependentScopeMemberExpr named `to`.
class MoveFinder : public RecursiveASTVisitor<MoveFinder> {
public:
  MoveFinder(MigrationContext &Ctx, const ModuleAccess &Module, llvm::StringRef Spelling,
             SourceLocation After)
      : Ctx(Ctx), Module(Module), Spelling(Spelling), After(After) {}
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (Method && Method->getIdentifier() && Method->getName() == "to")
      check(Call->getImplicitObjectArgument(), Call);
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (const auto *Dependent = dyn_cast<CXXDependentScopeMemberExpr>(Call->getCallee()))
      if (Dependent->getMember().getAsString() == "to" && !Dependent->isImplicitAccess())
        check(Dependent->getBase(), Call);
    return !Found;
  }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *Loop) {
    // `for (auto &m : layers) m->to(device);` moves each of `layers`.
    if (reaches(Loop->getRangeInit())) {
      MoveFinder Each(Ctx, ModuleAccess(), "", After);
      Each.LoopVariable = Loop->getLoopVariable();
      Each.TraverseStmt(Loop->getBody());
      if (Each.Found && isAfter(Loop->getBeginLoc()))
        return !(Found = true);
    }
    return RecursiveASTVisitor::TraverseCXXForRangeStmt(Loop);
  }
  bool Found = false;
  const VarDecl *LoopVariable = nullptr;

private:
  bool isAfter(SourceLocation Loc) const {
    return After.isInvalid() || Ctx.sources().isBeforeInTranslationUnit(After, Loc);
  }
  bool reaches(const Expr *Object) const {
    if (!Object)
      return false;
    if (LoopVariable) {
      const auto *Ref = dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts());
      if (const auto *Member = dyn_cast<MemberExpr>(Object->IgnoreParenImpCasts())) // m.second
        Ref = dyn_cast<DeclRefExpr>(Member->getBase()->IgnoreParenImpCasts());
      if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Object->IgnoreParenImpCasts())) // m.ptr()
        Ref = dyn_cast<DeclRefExpr>(Call->getImplicitObjectArgument()->IgnoreParenImpCasts());
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Object->IgnoreParenImpCasts());
          Op && Op->getNumArgs())
        Ref = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts());
      return Ref && Ref->getDecl() == LoopVariable;
    }
    if (!Module.empty())
      return calledOn(Object) == Module;
    return !Spelling.empty() && Ctx.text(Object->getSourceRange()) == Spelling;
  }
  /// `to(device)`, `to(device, dtype)`, `to(torch::kCUDA)`: a placement, unless
  /// it names the CPU. `to(torch::kF64)` only converts. In a template the
  /// argument's type may be unknown: counted as a placement.
  void check(const Expr *Object, const CallExpr *Call) {
    if (!Call->getNumArgs() || mentionsCPU(Call->getArg(0)) || !isAfter(Call->getBeginLoc()))
      return;
    // `(*p)->to(d)`, `m.ptr()->to(d)`: the object is reached through these.
    auto Bare = [](const Expr *E) {
      for (const Expr *Next = E->IgnoreImplicit()->IgnoreParens(); Next != E;
           Next = E->IgnoreImplicit()->IgnoreParens())
        E = Next;
      return E;
    };
    const Expr *Reached = Bare(Object);
    if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Reached);
        Arrow && Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs())
      Reached = Bare(Arrow->getArg(0));
    if (const auto *Ptr = dyn_cast<CXXMemberCallExpr>(Reached))
      Reached = Bare(Ptr->getImplicitObjectArgument());
    if (const auto *Deref = dyn_cast<UnaryOperator>(Reached); Deref && Deref->getOpcode() == UO_Deref)
      Reached = Bare(Deref->getSubExpr());
    if (const auto *Star = dyn_cast<CXXOperatorCallExpr>(Reached);
        Star && Star->getOperator() == OO_Star && Star->getNumArgs())
      Reached = Bare(Star->getArg(0));
    if (!reaches(Object) && !reaches(Reached))
      return;
    const Expr *Where = ignoreConversions(Call->getArg(0));
    Found |= Where->isTypeDependent() || isDeviceExpression(*Where);
  }
  MigrationContext &Ctx;
  const ModuleAccess &Module;
  llvm::StringRef Spelling;
  SourceLocation After;
};

/// Does `S` reach the owner of `Module` (other than through the module's own
/// path): call a member function of the object holding it, hand that object
/// on? Such a statement may use the module.
bool reachesOwner(const Stmt &S, const ModuleAccess &Module) {
  if (Module.Fields.empty())
    return false;
  if (!Module.Var) {
    // A member of `this`: a member function called, `this` handed on, a lambda capturing it.
    struct Finder : RecursiveASTVisitor<Finder> {
      bool Found = false;
      bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
        if (const Expr *Object = Call->getImplicitObjectArgument())
          Found |= isa<CXXThisExpr>(Object->IgnoreParenImpCasts());
        return !Found;
      }
      bool VisitCXXThisExpr(CXXThisExpr *This) {
        Found |= !This->isImplicit();
        return !Found;
      }
      bool VisitLambdaExpr(LambdaExpr *Lambda) {
        Found |= Lambda->getCaptureDefault() != LCD_None ||
                 llvm::any_of(Lambda->captures(),
                              [](const LambdaCapture &C) { return C.capturesThis(); });
        return !Found;
      }
    } F;
    F.TraverseStmt(const_cast<Stmt *>(&S));
    return F.Found;
  }
  ModuleAccess Owner;
  Owner.Var = Module.Var;
  bool OnlyThroughModule = true;
  // Every mention of the variable must be the start of the module's path.
  struct Finder : RecursiveASTVisitor<Finder> {
    const ModuleAccess &Module;
    bool Other = false;
    explicit Finder(const ModuleAccess &Module) : Module(Module) {}
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (Ref->getDecl() == Module.Var)
        ++Mentions;
      return true;
    }
    bool VisitMemberExpr(MemberExpr *Member) {
      if (Member->getMemberDecl()->getName() == Module.Fields.back()->getName() &&
          calledOn(Member) == Module)
        ++Paths;
      return true;
    }
    unsigned Mentions = 0, Paths = 0;
  } F(Module);
  F.TraverseStmt(const_cast<Stmt *>(&S));
  OnlyThroughModule = F.Mentions == F.Paths;
  return !OnlyThroughModule;
}

/// Is `S` a call of a member function of the object holding `Module` that
/// initialises it (`this->load(path)`, `trainer.restore(path)`)?
bool initialisesMemberByCall(MigrationContext &Ctx, const Stmt &S, const ModuleAccess &Module) {
  const auto *E = dyn_cast<Expr>(&S);
  const auto *Call = E ? dyn_cast<CXXMemberCallExpr>(E->IgnoreImplicit()) : nullptr;
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  if (!Method || Module.Fields.size() != 1)
    return false;
  const Expr *Object = Call->getImplicitObjectArgument()->IgnoreParenImpCasts();
  const bool OnOwner = Module.Var ? isa<DeclRefExpr>(Object) &&
                                        cast<DeclRefExpr>(Object)->getDecl() == Module.Var
                                  : isa<CXXThisExpr>(Object);
  return OnOwner && Ctx.facts().program().initializesMember(
                        Ctx.facts().usr(Method), Module.Fields.front()->getName());
}

} // namespace

bool isMovedIn(MigrationContext &Ctx, const Stmt *Root, const ModuleAccess &Access,
               llvm::StringRef Spelling, SourceLocation After) {
  if (!Root)
    return false;
  MoveFinder Finder(Ctx, Access, Spelling, After);
  Finder.TraverseStmt(const_cast<Stmt *>(Root));
  return Finder.Found;
}

ModuleCallFacts moduleCallFacts(MigrationContext &Ctx) {
  ModuleCallFacts Facts;
  Facts.InitialisesParameter = [&Ctx](const FunctionDecl &F, unsigned Index) {
    return Ctx.facts().program().initializesModule(Ctx.facts().usr(&F), Index);
  };
  Facts.OnlyAsks = [&Ctx](const FunctionDecl &F) {
    const PlacementSummary *Summary = Ctx.facts().placement().summaryOf(F);
    return Summary && !Summary->TensorWork;
  };
  return Facts;
}

const Stmt *endOfInitialisation(MigrationContext &Ctx, const CompoundStmt &Block,
                                const Stmt *Anchor, const ModuleAccess &Module) {
  const Stmt *Last = Anchor;
  if (Module.empty())
    return Last;
  const ModuleCallFacts ByCall = moduleCallFacts(Ctx);
  // A pin to the CPU (StatementRole::PinsToCpu) after the last
  // initialisation: it becomes the last one when a use follows it.
  const Stmt *Pin = nullptr;
  auto UsedAfter = [&] { return Pin ? Pin : Last; };
  bool Seen = Anchor == nullptr;
  for (const Stmt *S : Block.body()) {
    if (S == Anchor) {
      Seen = true;
      continue;
    }
    if (!Seen)
      continue;
    if (startsThread(*S))
      return UsedAfter();
    if (mentionsModule(*S, Module)) {
      switch (roleOf(Ctx.ast(), *S, Module, ByCall)) {
      case StatementRole::Uses:
        return UsedAfter();
      case StatementRole::PinsToCpu:
        Pin = S;
        break;
      case StatementRole::Initialises:
        Last = S;
        Pin = nullptr;
        break;
      case StatementRole::Asks:
        break;
      }
      continue;
    }
    if (initialisesMemberByCall(Ctx, *S, Module)) {
      Last = S;
      Pin = nullptr;
      continue;
    }
    if (reachesOwner(*S, Module))
      return UsedAfter();
  }
  return Last;
}

void placeGlobal(MigrationContext &Ctx, const VarDecl &Var, llvm::ArrayRef<ModuleMember> Members,
                 const ModuleVariableRule &Rule) {
  const FunctionDecl *Main = nullptr;
  for (Decl *D : Ctx.ast().getTraversalScope())
    if (const auto *F = dyn_cast<FunctionDecl>(D); F && F->isMain() && F->hasBody())
      Main = F;
  const auto *Body = Main ? dyn_cast<CompoundStmt>(Main->getBody()) : nullptr;
  std::vector<ModuleToMove> Modules;
  for (const ModuleMember &Member : Members)
    if (!Body || !isMovedIn(Ctx, Body, Member.Access, ""))
      Modules.push_back({Member.Access.spelling(), Member.Type,
                         isLossModule(Member.Type.Element.Class), ""});
  if (Modules.empty())
    return;
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

bool isUserRecord(const CXXRecordDecl *Record) {
  return Record && Record->hasDefinition() && !Record->isLambda() && !isLibraryDecl(Record) &&
         !isPerSampleClass(Record) && !isOrDerivesFrom(Record, "torch::nn::Module");
}

std::vector<const CXXConstructorDecl *> buildingConstructors(MigrationContext &Ctx,
                                                             const CXXRecordDecl &Record) {
  const CXXRecordDecl *Class = &Record;
  if (const CXXRecordDecl *Pattern = Record.getTemplateInstantiationPattern())
    Class = Pattern;
  std::vector<const CXXConstructorDecl *> Found;
  if (!Class->hasDefinition())
    return Found;
  // Constructor templates too (`template <class M> Task(M classifier)`).
  std::vector<const CXXConstructorDecl *> Ctors(Class->ctors().begin(), Class->ctors().end());
  for (const Decl *Member : Class->decls())
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(Member))
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Template->getTemplatedDecl()))
        Ctors.push_back(Ctor);
  for (const CXXConstructorDecl *Ctor : Ctors) {
    const FunctionDecl *Definition = nullptr;
    if (Ctor->isImplicit() || Ctor->isCopyOrMoveConstructor() || !Ctor->hasBody(Definition))
      continue;
    const auto *Built = cast<CXXConstructorDecl>(Definition);
    if (!Built->isDelegatingConstructor() && !Built->isDefaulted() && !Built->isDeleted() &&
        Ctx.isMigratedInThisRun(Built->getLocation()))
      Found.push_back(Built);
  }
  return Found;
}

bool isConstructedInProgram(MigrationContext &Ctx, const CXXRecordDecl &Record) {
  const CXXRecordDecl *Class = &Record;
  if (const CXXRecordDecl *Pattern = Record.getTemplateInstantiationPattern())
    Class = Pattern;
  return !buildingConstructors(Ctx, *Class).empty() ||
         Ctx.facts().program().hasConstructorInProgram(Ctx.facts().usr(Class));
}

namespace {

/// A member that holds a module as soon as its object exists: a module by
/// value, a holder not initialised with nullptr, a container or pointer or
/// smart pointer initialised with one.
bool existsWithObject(const FieldDecl &Field, const ModuleSlotType &Type) {
  return classifyStoredModule(Field.getInClassInitializer(), Type) == StoredModule::New;
}

} // namespace

void collectModuleMembers(MigrationContext &Ctx, const CXXRecordDecl &Record,
                          const ModuleAccess &Path, const ModuleVariableRule &Rule,
                          std::vector<ModuleMember> &Out, const CXXRecordDecl *InConstructorOf) {
  if (Path.Fields.size() > 3)
    return;
  if (&Record != InConstructorOf && isConstructedInProgram(Ctx, Record))
    return; // its constructors move what they build
  // A constructor declared but defined outside the run may build any member.
  const bool ConstructedElsewhere =
      &Record != InConstructorOf &&
      llvm::any_of(Record.ctors(), [](const CXXConstructorDecl *Ctor) {
        return !Ctor->isImplicit() && !Ctor->isCopyOrMoveConstructor() && !Ctor->isDeleted();
      });
  for (const FieldDecl *Field : Record.fields()) {
    ModuleAccess Access = Path;
    Access.Fields.push_back(Field);
    ModuleSlotType Type = memberSlotType(*Field);
    if (!Type.holdsModules()) {
      if (const CXXRecordDecl *Inner = Field->getType()->getAsCXXRecordDecl();
          Inner && isUserRecord(Inner) && !Field->getType()->isReferenceType())
        collectModuleMembers(Ctx, *Inner, Access, Rule, Out);
      continue;
    }
    if (!Rule.moves(Type.Element.Class) || Field->getType().isConstQualified())
      continue;
    // Empty when the object is created, and no constructor to fill it: it is
    // moved where the program assigns it (StorePlacement.cpp).
    if (!InConstructorOf && !ConstructedElsewhere && !existsWithObject(*Field, Type))
      continue;
    // Code creating the object cannot reach a private or protected member:
    // only its class's constructors can move it, and none this run migrates
    // builds it (`trainer.gen->to(device)` would not compile).
    if (!InConstructorOf && Field->getAccess() != AS_public) {
      Rule.diag(Path.Var ? Path.Var->getLocation() : Field->getLocation(),
                "module member '" + Field->getName().str() + "' of '" + Record.getNameAsString() +
                    "' is not public and no constructor of it in a file this run migrates "
                    "builds it: not moved (migrate the file defining its constructor too, "
                    "e.g. with --header-filter)");
      continue;
    }
    if (ConstructedElsewhere) {
      Rule.diag(Path.Var ? Path.Var->getLocation() : Field->getLocation(),
                "module member '" + Field->getName().str() + "' of '" + Record.getNameAsString() +
                    "' is built by a constructor of '" + Record.getNameAsString() +
                    "' that is not in a file of this run: not moved (give that file to the same "
                    "run)");
      continue;
    }
    Out.push_back({Access, Type});
  }
}

} // namespace to_device_migrate
