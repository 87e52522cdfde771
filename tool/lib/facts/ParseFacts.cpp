#include "facts/ParseFacts.h"
#include "facts/HostWrites.h"
#include "facts/ModuleInventory.h"
#include "facts/TorchTypes.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {
namespace {

bool holdsDevice(QualType Type) { return isDeviceType(Type) || isDeviceTypeEnum(Type); }

/// What `Value`, given to device parameter `Index` of function `Into` (or
/// to device member `Into`), is: the CPU alone, a device parameter of the
/// function it is written in, or anything else.
DeviceArgument deviceValue(std::string Into, unsigned Index, const Expr &Value) {
  const Expr *Bare = ignoreConversions(&Value)->IgnoreImplicit();
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Bare))
    Bare = ignoreConversions(Default->getExpr())->IgnoreImplicit();
  DeviceArgument Argument{std::move(Into), Index};
  const auto *Ref = dyn_cast<DeclRefExpr>(Bare->IgnoreParens());
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  const auto *Owner = Param ? dyn_cast<FunctionDecl>(Param->getDeclContext()) : nullptr;
  if (Owner && holdsDevice(Param->getType())) {
    Argument.What = DeviceArgument::Forwarded;
    Argument.From = usrOf(Owner);
    Argument.FromIndex = Param->getFunctionScopeIndex();
  } else if (namesOnlyTheCpu(*Bare)) {
    Argument.What = DeviceArgument::Cpu;
  }
  return Argument;
}

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
    recordDeviceArguments(*F);
    recordDeviceMemberValues(*F);
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
    const Expr *Init = Field->getInClassInitializer();
    if (!Init || !isInMigratedFile(Field->getLocation()))
      return true;
    if (isProgramTensorField(Field))
      recordFieldWrite(*Field, valueWrite(*Init));
    if (holdsDevice(Field->getType()))
      recordDeviceMemberValue(*Field, *Init);
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

  /// The devices `F`'s calls and constructions (its constructor's
  /// initialisers too) hand to the device parameters of the program's
  /// functions: `torch::kCPU`, a device parameter of `F`'s own, or another.
  void recordDeviceArguments(const FunctionDecl &F) {
    auto Record = [&](const FunctionDecl *Callee, std::vector<const Expr *> Arguments) {
      if (!Callee || isLibraryDecl(Callee))
        return;
      for (unsigned I = 0; I < Arguments.size() && I < Callee->getNumParams(); ++I) {
        if (!holdsDevice(Callee->getParamDecl(I)->getType()))
          continue;
        std::string Usr = usrOf(Callee);
        if (Usr.empty())
          continue;
        Summary.DeviceArguments.push_back(deviceValue(std::move(Usr), I, *Arguments[I]));
      }
    };
    struct Calls : RecursiveASTVisitor<Calls> {
      std::function<void(const FunctionDecl *, std::vector<const Expr *>)> Found;
      bool VisitCallExpr(CallExpr *Call) {
        if (!isa<CXXOperatorCallExpr>(Call))
          Found(Call->getDirectCallee(), {Call->arg_begin(), Call->arg_end()});
        return true;
      }
      bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
        Found(Construct->getConstructor(), {Construct->arg_begin(), Construct->arg_end()});
        return true;
      }
    } Collected;
    Collected.Found = Record;
    Collected.TraverseDecl(const_cast<FunctionDecl *>(&F));
  }

  /// The devices `F` gives the device members of the program's classes: its
  /// constructor's initialisers, its assignments (`device_ = device`).
  void recordDeviceMemberValues(const FunctionDecl &F) {
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&F))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isWritten() && Init->getMember() && holdsDevice(Init->getMember()->getType()))
          recordDeviceMemberValue(*Init->getMember(), *Init->getInit());
    const auto Member = memberExpr(member(fieldDecl().bind("member")));
    for (const auto &Assignment :
         match(findAll(expr(anyOf(cxxOperatorCallExpr(hasOverloadedOperatorName("="),
                                                       hasArgument(0, ignoringParenImpCasts(Member)),
                                                       hasArgument(1, expr().bind("value"))),
                                   binaryOperator(hasOperatorName("="),
                                                  hasLHS(ignoringParenImpCasts(Member)),
                                                  hasRHS(expr().bind("value")))))),
               *F.getBody(), Ast)) {
      const auto *Field = Assignment.getNodeAs<FieldDecl>("member");
      if (holdsDevice(Field->getType()))
        recordDeviceMemberValue(*Field, *Assignment.getNodeAs<Expr>("value"));
    }
  }

  void recordDeviceMemberValue(const FieldDecl &Field, const Expr &Value) {
    if (std::string Usr = usrOf(&Field); !Usr.empty())
      Summary.DeviceMemberValues.push_back(deviceValue(std::move(Usr), 0, Value));
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

bool isCpuOnlyIn(const ProgramSummary &Program, const ValueDecl &Device) {
  if (const auto *Member = dyn_cast<FieldDecl>(&Device))
    return Program.isCpuOnlyMember(usrOf(Member));
  const auto *Param = dyn_cast<ParmVarDecl>(&Device);
  const auto *Function = Param ? dyn_cast<FunctionDecl>(Param->getDeclContext()) : nullptr;
  return Function && Program.isCpuOnlyParameter(usrOf(Function), Param->getFunctionScopeIndex());
}

/// The placement analysis of a parse, asking `Program` (when there is one)
/// about the functions other translation units define.
std::unique_ptr<PlacementFlow> analysePlacement(ASTContext &Ast, llvm::ArrayRef<Decl *> Decls,
                                                const llvm::DenseSet<FileID> &Files,
                                                const ProgramSummary *Program,
                                                const PerSampleCode *PerSample = nullptr,
                                                const ProgramSummary *Calls = nullptr) {
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
    Whole.IsHostChosenField = [Program](const FieldDecl &Field) {
      return Program->isHostChosenField(usrOf(&Field));
    };
  } else if (Calls) {
    // The first pass: the members this parse's own code builds on the host,
    // so that a getter's summary says what it hands out is host-built.
    Whole.IsHostBuiltField = [Calls](const FieldDecl &Field) {
      return Calls->isHostBuiltField(usrOf(&Field));
    };
  }
  if (const ProgramSummary *Devices = Calls ? Calls : Program)
    Whole.IsCpuDevice = [Devices](const ValueDecl &Device) { return isCpuOnlyIn(*Devices, Device); };
  Whole.KnowsEveryDevice = Program != nullptr;
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
  ProgramSummary Local;
  if (!Flow) {
    // The first pass knows only this parse's calls: a device parameter they
    // all hand the CPU is taken for the host's in this parse's summaries.
    // Another file's call handing it the device makes the merged program's
    // answer no, and then the second pass's own analysis says so; a caller
    // elsewhere told "host" by these summaries only moves what it receives,
    // which costs nothing when it is on the device already.
    TranslationUnitSummary Calls;
    Calls.DeviceArguments = Summary.DeviceArguments;
    Calls.DeviceMemberValues = Summary.DeviceMemberValues;
    // Its members built on the host as far as this parse sees. Another file
    // setting one otherwise makes the merged program's answer no; a caller
    // told "host-built" by a getter's summary meanwhile moves what it
    // receives, which costs nothing when it is on the device already.
    Calls.HostWrittenFields = Summary.HostWrittenFields;
    Calls.FactoryBuiltFields = Summary.FactoryBuiltFields;
    Calls.OtherwiseSetFields = Summary.OtherwiseSetFields;
    Local = ProgramSummary::merge({Calls});
    Own = analysePlacement(Ast, Decls, Files, nullptr, nullptr, &Local);
    Flow = Own.get();
  }
  Flow->forEachHostChosenField([&](const FieldDecl &Field, const ValueDecl *Device) {
    std::string Usr = usrOf(&Field);
    if (Usr.empty())
      return;
    if (!Device) {
      Summary.HostChosenFields.push_back(std::move(Usr));
      return;
    }
    DeviceArgument Through{std::move(Usr), 0, DeviceArgument::Member, usrOf(Device)};
    if (const auto *Param = dyn_cast<ParmVarDecl>(Device)) {
      Through.What = DeviceArgument::Forwarded;
      Through.From = usrOf(dyn_cast<FunctionDecl>(Param->getDeclContext()));
      Through.FromIndex = Param->getFunctionScopeIndex();
    }
    Summary.FieldDevices.push_back(std::move(Through));
  });
  Flow->forEachHostWrittenField([&](const FieldDecl &Field) {
    if (std::string Usr = usrOf(&Field); !Usr.empty())
      Summary.HostWrittenFields.push_back(std::move(Usr));
  });
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

bool ParseFacts::isCpuOnlyDevice(const ValueDecl &Device) const {
  return isCpuOnlyIn(*Program, Device);
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
