#include "facts/ParseFacts.h"
#include "facts/HostWrites.h"
#include "facts/ModuleInventory.h"
#include "facts/TorchTypes.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace to_device_migrate {
namespace {

/// The functions and constructors the migrated files define, and which of
/// them return a tensor their own host code built.
class DefinitionCollector : public RecursiveASTVisitor<DefinitionCollector> {
public:
  DefinitionCollector(ASTContext &Ast, const llvm::DenseSet<FileID> &Files,
                      TranslationUnitSummary &Summary)
      : Ast(Ast), Files(Files), Summary(Summary) {}
  bool VisitFunctionDecl(FunctionDecl *F) {
    if (!F->doesThisDeclarationHaveABody() || !isInMigratedFile(F->getLocation()))
      return true;
    // What its code does to members and hands to functions (main() too).
    forEachTensorFieldWrite(Ast, *F, [&](const FieldDecl &Field, FieldWrite Write) {
      recordFieldWrite(Field, Write);
    });
    recordTensorArguments(*F);
    if (F->isMain())
      return true;
    std::string Usr = usrOf(F);
    if (Usr.empty())
      return true;
    if (to_device_migrate::returnsHostBuiltTensor(Ast, *F))
      Summary.HostBuiltReturns.push_back(Usr);
    for (const ParmVarDecl *Param : F->parameters())
      if (isInputParameter(Ast, *Param))
        Summary.InputParameters[Usr].push_back(Param->getFunctionScopeIndex());
    if (!isa<CXXMethodDecl>(F))
      Summary.FreeFunctions.push_back(Usr);
    Summary.Defined.push_back(std::move(Usr));
    const std::string &Defined = Summary.Defined.back();
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F);
        Ctor && !Ctor->isImplicit() && !Ctor->isCopyOrMoveConstructor() &&
        !Ctor->isDelegatingConstructor() && !Ctor->isDefaulted())
      Summary.ConstructedClasses.push_back(usrOf(Ctor->getParent()));
    // What it initialises of the modules it is handed, or of its object's.
    for (unsigned I = 0; I < F->getNumParams(); ++I) {
      const ParmVarDecl *Param = F->getParamDecl(I);
      if (classifyModuleSlot(Param->getType().getNonReferenceType()).holdsModules() &&
          hasInitialisation(Ast, *F->getBody(), ModuleAccess{Param, {}}))
        Summary.ModuleInitializers[Defined].push_back(I);
    }
    if (const auto *Method = dyn_cast<CXXMethodDecl>(F); Method && initialisesItsObject(*Method))
      Summary.ModuleInitializers[Defined].push_back(ObjectParameter);
    if (const auto *Method = dyn_cast<CXXMethodDecl>(F); Method && !isa<CXXConstructorDecl>(F))
      for (const FieldDecl *Field : Method->getParent()->fields())
        if (memberSlotType(*Field).holdsModules() &&
            hasInitialisation(Ast, *F->getBody(), ModuleAccess{nullptr, {Field}}))
          Summary.MemberInitializers[Defined].push_back(Field->getName().str());
    return true;
  }

  bool VisitFieldDecl(FieldDecl *Field) {
    if (const Expr *Init = Field->getInClassInitializer(); Init && isProgramTensorField(Field) &&
                                                           isInMigratedFile(Field->getLocation()))
      recordFieldWrite(*Field, valueWrite(*Init));
    return true;
  }

private:
  bool isInMigratedFile(SourceLocation Loc) const {
    const SourceManager &SM = Ast.getSourceManager();
    // FileID() is DenseSet's empty key: an implicit declaration's invalid
    // location must not be looked up.
    const FileID File = SM.getFileID(SM.getExpansionLoc(Loc));
    return File.isValid() && Files.count(File);
  }

  /// The tensors `F`'s calls hand to the program's functions, and whether each is host data.
  void recordTensorArguments(const FunctionDecl &F) {
    struct Calls : RecursiveASTVisitor<Calls> {
      std::vector<const CallExpr *> Found;
      bool VisitCallExpr(CallExpr *Call) {
        Found.push_back(Call);
        return true;
      }
    } Collected;
    Collected.TraverseStmt(F.getBody());
    for (const CallExpr *Call : Collected.Found)
      for (const Expr *Arg : Call->arguments())
        if (std::optional<HandedTo> To = handedTo(Ast, *Arg))
          if (std::string Callee = usrOf(To->Callee); !Callee.empty())
            Summary.TensorArguments.push_back({std::move(Callee), To->Index, isHostDataArgument(*Arg)});
  }

  void recordFieldWrite(const FieldDecl &Field, FieldWrite Write) {
    std::string Usr = usrOf(&Field);
    if (Usr.empty())
      return;
    (Write == FieldWrite::Host           ? Summary.HostWrittenFields
     : Write == FieldWrite::FactoryValue ? Summary.FactoryBuiltFields
                                         : Summary.OtherwiseSetFields)
        .push_back(std::move(Usr));
  }

  ASTContext &Ast;
  const llvm::DenseSet<FileID> &Files;
  TranslationUnitSummary &Summary;
};

/// Where the program's long-lived tensor options get their values.
class OptionsValueCollector : public RecursiveASTVisitor<OptionsValueCollector> {
public:
  using ValueMap = llvm::DenseMap<const Decl *, llvm::SmallVector<const Expr *, 2>>;
  explicit OptionsValueCollector(ValueMap &Values) : Values(Values) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitVarDecl(VarDecl *Var) {
    if (Var->hasGlobalStorage() && Var->hasInit() && isTensorOptionsType(Var->getType()))
      add(Var, Var->getInit());
    return true;
  }
  bool VisitFieldDecl(FieldDecl *Field) {
    if (Field->getInClassInitializer() && isTensorOptionsType(Field->getType()))
      add(Field, Field->getInClassInitializer());
    return true;
  }
  bool VisitCXXConstructorDecl(CXXConstructorDecl *Ctor) {
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten() && Init->getMember() &&
          isTensorOptionsType(Init->getMember()->getType()))
        add(Init->getMember(), Init->getInit());
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *Return) {
    if (Function && Return->getRetValue())
      add(Function, Return->getRetValue());
    return true;
  }
  bool TraverseFunctionDecl(FunctionDecl *F) {
    return traverseFunction(F, [&] { return Base::TraverseFunctionDecl(F); });
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *F) {
    return traverseFunction(F, [&] { return Base::TraverseCXXMethodDecl(F); });
  }
  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    return traverseFunction(nullptr, [&] { return Base::TraverseLambdaExpr(Lambda); });
  }
  // `opts = opts.dtype(torch::kFloat32)`: an assignment to a member or global.
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
    if (Call->getOperator() == OO_Equal && Call->getNumArgs() == 2)
      if (const Decl *Target = assignedDecl(Call->getArg(0)))
        add(Target, Call->getArg(1));
    return true;
  }

private:
  using Base = RecursiveASTVisitor<OptionsValueCollector>;

  /// Return statements belong to the innermost function (not to a lambda in it).
  template <typename Traverse> bool traverseFunction(const FunctionDecl *F, Traverse Body) {
    const FunctionDecl *Outer = Function;
    Function = F && isTensorOptionsType(F->getReturnType()) ? F : nullptr;
    bool Result = Body();
    Function = Outer;
    return Result;
  }

  static const Decl *assignedDecl(const Expr *Target) {
    Target = Target->IgnoreParenImpCasts();
    if (!isTensorOptionsType(Target->getType()))
      return nullptr;
    if (const auto *Member = dyn_cast<MemberExpr>(Target))
      return Member->getMemberDecl();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Target)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      return Var && Var->hasGlobalStorage() ? Var : nullptr;
    }
    return nullptr;
  }

  void add(const Decl *D, const Expr *Value) { Values[D->getCanonicalDecl()].push_back(Value); }

  ValueMap &Values;
  const FunctionDecl *Function = nullptr;
};

} // namespace

namespace {

/// The placement analysis of a parse, asking `Program` (when there is one)
/// about the functions other translation units define.
std::unique_ptr<PlacementFlow> analysePlacement(ASTContext &Ast, llvm::ArrayRef<Decl *> Decls,
                                                const llvm::DenseSet<FileID> &Files,
                                                const ProgramSummary *Program,
                                                const PerSampleCode *PerSample = nullptr) {
  PlacementFlow::Program Whole;
  if (PerSample)
    Whole.IsPerSampleCode = [PerSample](const Expr &E) {
      return PerSample->contains(DynTypedNode::create(E));
    };
  Whole.IsMigrated = [&Ast, &Files](SourceLocation Loc) {
    const SourceManager &SM = Ast.getSourceManager();
    const FileID File = SM.getFileID(SM.getExpansionLoc(Loc));
    return File.isValid() && Files.count(File);
  };
  if (Program) {
    Whole.Elsewhere = [Program](const FunctionDecl &F) { return Program->placementOf(usrOf(&F)); };
    Whole.IsHostBuiltField = [Program](const FieldDecl &Field) {
      return Program->isHostBuiltField(usrOf(&Field));
    };
  }
  return std::make_unique<PlacementFlow>(Ast, Decls, std::move(Whole));
}

} // namespace

TranslationUnitSummary ParseFacts::summarize(ASTContext &Ast, llvm::ArrayRef<Decl *> Decls,
                                             const llvm::DenseSet<FileID> &Files,
                                             const PlacementFlow *Flow) {
  TranslationUnitSummary Summary;
  DefinitionCollector Definitions(Ast, Files, Summary);
  for (Decl *D : Decls)
    Definitions.TraverseDecl(D);
  Summary.Uses = collectFunctionUses(Ast, Decls);
  std::unique_ptr<PlacementFlow> Own;
  if (!Flow)
    Flow = (Own = analysePlacement(Ast, Decls, Files, nullptr)).get();
  Flow->forEachSummary([&](const FunctionDecl &F, const PlacementSummary &Placement) {
    if (std::string Usr = usrOf(&F); !Usr.empty())
      Summary.Placements.emplace(std::move(Usr), Placement);
  });
  return Summary;
}

ParseFacts::ParseFacts(ASTContext &Ast, llvm::ArrayRef<Decl *> Decls,
                       const llvm::DenseSet<FileID> &Files,
                       std::shared_ptr<const ProgramSummary> WholeProgram)
    : Program(WholeProgram ? std::move(WholeProgram)
                           : std::make_shared<const ProgramSummary>(
                                 ProgramSummary::merge({summarize(Ast, Decls, Files)}))),
      PerSample(Ast, *Program, [this](const Decl *D) { return usr(D); }),
      Flow(analysePlacement(Ast, Decls, Files, Program.get(), &PerSample)) {
  OptionsValueCollector Options(OptionsValues);
  for (Decl *D : Decls)
    Options.TraverseDecl(D);
  ModuleStores = collectModuleStores(Ast, Decls);
}

bool ParseFacts::receivesHostData(const ParmVarDecl &Param) const {
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Param.getParentFunctionOrMethod());
  return Function && receivesHostData(*Function, Param.getFunctionScopeIndex());
}

std::string ParseFacts::usr(const Decl *D) const {
  auto [Entry, New] = Usrs.try_emplace(D);
  if (New)
    Entry->second = usrOf(D);
  return Entry->second;
}

} // namespace to_device_migrate
