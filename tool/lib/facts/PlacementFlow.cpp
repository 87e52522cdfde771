#include "facts/PlacementFlow.h"
#include "facts/HostWrites.h"
#include "facts/Liveness.h"
#include "facts/PerSampleCode.h"
#include "facts/ProgramSummary.h"
#include "facts/ModuleConstruction.h"
#include "facts/TorchOps.h"
#include "facts/TorchTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace clang;

namespace to_device_migrate {
namespace {

constexpr unsigned NoNode = ~0u;

/// `E` without implicit conversions, temporaries and parentheses: the
/// expression as written, the key of what the analysis says about it.
const Expr *bare(const Expr *E) {
  for (const Expr *Next = E->IgnoreImplicit()->IgnoreParens(); Next != E;
       Next = E->IgnoreImplicit()->IgnoreParens())
    E = Next;
  return E;
}

/// True if values of `Type` hold tensors: a tensor, or a container, pair,
/// tuple, optional, IValue or index (`t.index_put_({idx}, v)`) that may hold
/// one (not a module: its tensors are its parameters, the device's).
bool holdsTensors(QualType Type) {
  if (Type.isNull())
    return false; // a declaration of a dependent pack, a statement's missing type
  Type = Type.getNonReferenceType();
  if (isTensorType(Type))
    return true;
  if (classifyModuleSlot(Type).holdsModules())
    return false;
  const std::string Spelled = Type.getCanonicalType().getAsString();
  return StringRef(Spelled).contains("at::Tensor") || StringRef(Spelled).contains("c10::IValue") ||
         StringRef(Spelled).contains("at::indexing::TensorIndex");
}

/// A method of a module class (`forward`, `parameters`), or a call of a module
/// object (`net(x)`, `net->forward(x)`, a TorchScript module's forward).
bool isModuleCall(const CallExpr &Call) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (Method && isOrDerivesFrom(Method->getParent(), "torch::nn::Module"))
      return true;
    const Expr *Object = Member->getImplicitObjectArgument();
    return Object && classifyModuleSlot(Object->getType()).holdsModules() && holdsTensors(Call.getType());
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call); Op && Op->getOperator() == OO_Call)
    return classifyModuleSlot(Op->getArg(0)->getType()).holdsModules();
  return false;
}

/// A call that runs a module on its operands: `net(x)`, `net->forward(x)`.
bool runsModule(const CallExpr &Call) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call))
    return Op->getOperator() == OO_Call;
  const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
  const CXXMethodDecl *Method = Member ? Member->getMethodDecl() : nullptr;
  return Method && Method->getIdentifier() && Method->getName() == "forward";
}

} // namespace

class PlacementFlow::Impl {
public:
  Impl(ASTContext &Ast, ArrayRef<Decl *> Decls, Program Whole) : Ast(Ast), Whole(std::move(Whole)) {
    for (Decl *D : Decls)
      collectFunctions(D);
    DuringConstruction = runDuringModuleConstruction(Functions);
    // Summaries to a fixed point: a caller's view of a callee is the callee's
    // summary, which its own callees' summaries decide.
    for (int Round = 0; Round < 8; ++Round) {
      bool Changed = analyseAll(); // the last round's classes are the answers
      for (const FunctionDecl *F : Functions) {
        PlacementSummary Summary = summarize(*F);
        auto [Entry, New] = Summaries.try_emplace(F->getCanonicalDecl(), Summary);
        if (!New && Entry->second == Summary)
          continue;
        Entry->second = std::move(Summary);
        Changed = true;
      }
      if (!Changed)
        break;
    }
    // A host tensor taken by an operation is copied there: a copy that ends
    // in a class of the device's is a move the host tensor needs.
    // A copy that escapes takes the host tensor's data with it.
    for (const auto &[Use, Copy] : Crossings) {
      const Facts &To = Classes[find(Copy)];
      Facts &From = Classes[find(Use)];
      From.CrossesToDevice |= To.Device;
      From.Escapes |= To.Escapes;
    }
  }

  bool isMovedWhereDefined(const VarDecl &Var) const {
    auto Node = DeclNodes.find(Var.getCanonicalDecl());
    if (Node == DeclNodes.end() || !Var.hasLocalStorage() || isa<ParmVarDecl>(Var) ||
        !isTensorType(Var.getType()) || Var.getType()->isReferenceType() || !Var.getInit())
      return false;
    auto Built = BuiltByHost.find(&Var);
    if (Built != BuiltByHost.end() && Built->second)
      return false; // its function builds it: moved at each device use (HostBuiltTensorRule)
    const auto *Init = dyn_cast<CallExpr>(bare(Var.getInit()));
    if (Init && effectOf(*Init) != TensorEffect::NotLibTorch)
      return false; // made here by LibTorch: placed where it is made
    const Facts &Class = Classes[findConst(Node->second)];
    return Class.Host && Class.CrossesToDevice && !Class.HostWrite && !Class.Device;
  }

  bool staysOnHost(const Expr &Site) const {
    auto Found = ExprNodes.find(Site.IgnoreParens());
    if (Found == ExprNodes.end())
      return false;
    const Facts &Class = Classes[findConst(Found->second)];
    return !Class.Device && !Class.CrossesToDevice && !Class.Escapes;
  }

  bool isMovedWhereUsed(const Expr &Use) const {
    auto Copy = CrossingAt.find(bare(&Use));
    return Copy != CrossingAt.end() && Classes[findConst(Copy->second)].Device;
  }

  Placement of(const Expr &Site) const {
    auto Found = ExprNodes.find(Site.IgnoreParens());
    if (Found == ExprNodes.end())
      return {};
    // Per-sample code is the host's whatever its tensors meet: the batch
    // they are stacked into is moved where the loop receives it.
    if (Whole.IsPerSampleCode && Whole.IsPerSampleCode(Site))
      return {Placement::Host, nullptr};
    const Facts &Class = Classes[findConst(Found->second)];
    if (Class.Device)
      return {Placement::Device, nullptr};
    // Host code builds it, or writes its memory (here, or in a function it
    // is handed to: ParameterNeed::HostWrite), and no device code needs it.
    if (Class.Host || Class.HostWrite)
      return {Placement::Host, nullptr};
    // A tensor the caller always gives (no default: an undefined tensor has
    // no device; not one the function assigns, `Tensor &out`, which a caller
    // may hand over undefined for it to fill).
    auto Owner = SiteFunctions.find(Site.IgnoreParens());
    if (Owner == SiteFunctions.end())
      return {};
    if (std::optional<Placement> Given = parameterOf(Class, Owner->second))
      return *Given;
    // Filled with copies of what a parameter's class holds (`grad[i] =
    // f(input)`): a copy crosses devices, but the function's own tensor is
    // best made where its inputs are.
    const unsigned Root = findConst(Found->second);
    for (const Copy &Into : Copies)
      if (findConst(Into.Written) == Root)
        if (std::optional<Placement> Given = parameterOf(Classes[findConst(Into.Source)], Owner->second))
          return *Given;
    // Combined with a host tensor that nothing moves: made on the host too.
    if (Class.FromHost)
      return {Placement::Host, nullptr};
    // Copied into a tensor host code builds (`batch[i] = torch::tensor(row)`
    // in a fill) and needed nowhere else: made on the host, where it goes.
    for (const Copy &Into : Copies)
      if (findConst(Into.Source) == Root && Classes[findConst(Into.Written)].Host)
        return {Placement::Host, nullptr};
    return {};
  }

  bool needsDevice(const Expr &Value) const {
    auto Found = ExprNodes.find(Value.IgnoreParens());
    return Found != ExprNodes.end() && Classes[findConst(Found->second)].Device;
  }

  const PlacementSummary *summaryOf(const FunctionDecl &F) const {
    auto Found = Summaries.find(F.getCanonicalDecl());
    return Found == Summaries.end() ? nullptr : &Found->second;
  }

  const PlacementSummary *calleeSummary(const FunctionDecl &Callee) const {
    // This file's functions first, then the rest of the program's.
    if (const PlacementSummary *Here = summaryOf(Callee))
      return Here;
    return Whole.Elsewhere ? Whole.Elsewhere(Callee) : nullptr;
  }

  void forEachHostChosenField(
      llvm::function_ref<void(const FieldDecl &, const ValueDecl *)> Visit) const {
    for (const auto &[D, Node] : DeclNodes)
      if (const auto *Field = dyn_cast<FieldDecl>(D)) {
        const Facts &Class = Classes[findConst(Node)];
        if (Class.Device)
          continue;
        if (Class.FromHost)
          Visit(*Field, nullptr);
        else if (Class.ThroughDevice)
          Visit(*Field, Class.ThroughDevice);
      }
  }

  void forEachHostWrittenField(llvm::function_ref<void(const FieldDecl &)> Visit) const {
    for (const Copy &Into : Copies) {
      const Facts &From = Classes[findConst(Into.Source)];
      if (Into.Field && (From.Host || From.HostWrite) && !From.Device)
        Visit(*Into.Field);
    }
    // Handed to a function that writes it (`read(weights_, file)`), and not
    // needed by device code as it is: built on the host. (A member its own
    // class's code writes is found by forEachTensorFieldWrite().)
    for (const FieldDecl *Field : WrittenFields)
      if (auto Node = DeclNodes.find(Field->getCanonicalDecl()); Node != DeclNodes.end())
        if (const Facts &Class = Classes[findConst(Node->second)]; Class.HostWrite && !Class.Device)
          Visit(*Field);
  }

  void forEachSummary(llvm::function_ref<void(const FunctionDecl &, const PlacementSummary &)> Visit) const {
    for (const FunctionDecl *F : Functions)
      if (const PlacementSummary *Summary = summaryOf(*F))
        Visit(*F, *Summary);
  }

private:
  /// What is known of one colocation class.
  struct Facts {
    bool Device = false;    ///< meets a module: the device
    bool Host = false;      ///< built by host code (HostWrites.h), copied where taken
    bool HostWrite = false; ///< host code writes its memory
    bool CrossesToDevice = false; ///< Host, and copied into a class of the device's
    /// Holds a host copy the program asks for (`.cpu()`, `.to(device_)` with
    /// a device pinned to the CPU), and nothing moves it back: on the host
    /// unless the class meets the device. (Not an operation's copy of a
    /// host-built tensor, `operand()`: the rules move that one at each use
    /// by device code, HostBuiltTensorRule.)
    bool FromHost = false;
    /// Holds a transfer to this device member (`.to(device_)`), or a
    /// factory given this device parameter or member as its options
    /// (`torch::zeros(n, torch::TensorOptions(device))`), which the first
    /// pass cannot place: the program's calls and constructions decide it.
    const ValueDecl *ThroughDevice = nullptr;
    bool Escapes = false; ///< returned, kept in a member or global, or handed to unseen code
    bool Kept = false;    ///< kept in a member or a global: it outlives its function's call
    llvm::SmallVector<const ParmVarDecl *, 1> Params; ///< parameters in it
    /// Tensor members of parameters in it (`view.pose` of `const View &view`).
    llvm::SmallVector<std::pair<const ParmVarDecl *, const FieldDecl *>, 1> ParamFields;
  };

  // --- The colocation classes: a union-find over nodes ---
  unsigned fresh() {
    Parent.push_back(Parent.size());
    Classes.emplace_back();
    return Parent.size() - 1;
  }
  unsigned find(unsigned N) {
    while (Parent[N] != N)
      N = Parent[N] = Parent[Parent[N]];
    return N;
  }
  unsigned findConst(unsigned N) const {
    while (Parent[N] != N)
      N = Parent[N];
    return N;
  }
  unsigned unite(unsigned A, unsigned B) {
    if (A == NoNode)
      return B;
    if (B == NoNode)
      return A;
    A = find(A);
    B = find(B);
    if (A == B)
      return A;
    Parent[B] = A;
    Facts &Into = Classes[A], &From = Classes[B];
    Into.Device |= From.Device;
    Into.Host |= From.Host;
    Into.HostWrite |= From.HostWrite;
    Into.Escapes |= From.Escapes;
    Into.Kept |= From.Kept;
    Into.CrossesToDevice |= From.CrossesToDevice;
    Into.FromHost |= From.FromHost;
    if (!Into.ThroughDevice)
      Into.ThroughDevice = From.ThroughDevice;
    Into.Params.append(From.Params.begin(), From.Params.end());
    Into.ParamFields.append(From.ParamFields.begin(), From.ParamFields.end());
    return A;
  }
  Facts &factsOf(unsigned N) { return Classes[find(N)]; }

  /// Where `Class` follows a tensor parameter of `Function` (or a tensor
  /// member of one) that every caller gives.
  std::optional<Placement> parameterOf(const Facts &Class, const FunctionDecl *Function) const {
    for (const ParmVarDecl *Param : Class.Params)
      if (Param->getDeclContext() == Function && isTensorType(Param->getType()) &&
          !Param->hasDefaultArg() && !Assigned.count(Param))
        return Placement{Placement::Parameter, Param};
    for (const auto &[Param, Field] : Class.ParamFields)
      if (Param->getDeclContext() == Function && !Param->hasDefaultArg())
        return Placement{Placement::Parameter, Param, Field};
    return std::nullopt;
  }

  /// The node of a variable, parameter, binding or member of the program.
  unsigned nodeOf(const Decl *D) {
    D = D->getCanonicalDecl();
    auto [Entry, New] = DeclNodes.try_emplace(D, 0);
    if (!New)
      return Entry->second;
    const unsigned N = fresh();
    DeclNodes[D] = N;
    if (const auto *Param = dyn_cast<ParmVarDecl>(D))
      Classes[N].Params.push_back(Param);
    else if (const auto *Var = dyn_cast<VarDecl>(D)) {
      Classes[N].Host = isBuiltByHost(*Var);
      Classes[N].Escapes = Classes[N].Kept = Var->hasGlobalStorage();
    } else if (const auto *Field = dyn_cast<FieldDecl>(D)) {
      Classes[N].Host = Whole.IsHostBuiltField && Whole.IsHostBuiltField(*Field);
      Classes[N].FromHost = Whole.IsHostChosenField && Whole.IsHostChosenField(*Field);
      Classes[N].Escapes = Classes[N].Kept = true;
    }
    return N;
  }
  unsigned returnNode(const FunctionDecl &F) {
    auto [Entry, New] = ReturnNodes.try_emplace(F.getCanonicalDecl(), 0);
    if (New) {
      Entry->second = fresh();
      Classes[Entry->second].Escapes = true;
    }
    return Entry->second;
  }
  unsigned deviceNode() {
    if (DeviceNode == NoNode) {
      DeviceNode = fresh();
      Classes[DeviceNode].Device = true;
    }
    return DeviceNode;
  }
  /// What meets a module while it is made (ModuleConstruction.h): the host.
  unsigned constructionNode() {
    if (ConstructionNode == NoNode) {
      ConstructionNode = fresh();
      Classes[ConstructionNode].Host = true;
    }
    return ConstructionNode;
  }
  /// A local the host builds (HostWrites.h): rows gathered and joined, a
  /// tensor filled element by element. Computed once per variable.
  bool isBuiltByHost(const VarDecl &Var) {
    auto [Entry, New] = BuiltByHost.try_emplace(&Var, false);
    // Only one made where it is declared: one declared empty and made later
    // (madeBy()) has values before that the classes would join; the rules
    // keep it on the host and move it where device code uses it.
    if (New && Var.hasLocalStorage() && !isa<ParmVarDecl>(Var))
      Entry->second = (isHostBuiltTensor(Ast, Var) && madeBy(Ast, Var) == Var.getInit()) ||
                      isGatheredHostRows(Ast, Var);
    return Entry->second;
  }

  // --- A local's values, one node per definition ---
  /// True if each value of the local `Var` is its own node: a tensor local
  /// (not a reference, not a parameter, not one the host builds, which is
  /// one tensor throughout) that no lambda captures and whose address is
  /// not taken, so that its function's CFG sees every assignment. Its reads
  /// are the definitions reaching them (`image = transform(image)`: the
  /// image before and after are apart).
  bool isFollowedByDefinition(const VarDecl &Var) {
    if (!isTensorLocal(Var) || isBuiltByHost(Var))
      return false;
    const auto *Owner = dyn_cast_or_null<FunctionDecl>(Var.getParentFunctionOrMethod());
    return Owner && !definitionsIn(*Owner).Unfollowed.count(&Var);
  }

  /// A tensor local of its own (not a parameter, not a reference).
  static bool isTensorLocal(const VarDecl &Var) {
    return Var.hasLocalStorage() && !isa<ParmVarDecl>(Var) && isTensorType(Var.getType()) &&
           !Var.getType()->isReferenceType();
  }

  struct LocalDefinitions {
    std::unique_ptr<ReachingDefinitions> Reaching;
    llvm::DenseSet<const VarDecl *> Unfollowed; ///< captured by a lambda, or `&var` taken
  };
  /// The definitions of `F`'s locals, computed once for every round.
  const LocalDefinitions &definitionsIn(const FunctionDecl &F) {
    auto [Entry, New] = Definitions.try_emplace(&F);
    if (!New)
      return Entry->second;
    using namespace clang::ast_matchers;
    LocalDefinitions &Found = Entry->second;
    if (!F.getBody()) {
      Found.Reaching = std::make_unique<ReachingDefinitions>(F, [](const VarDecl &) { return false; });
      return Found;
    }
    for (const BoundNodes &Nodes :
         match(findAll(stmt(anyOf(lambdaExpr().bind("lambda"),
                                  unaryOperator(hasOperatorName("&"),
                                                hasUnaryOperand(ignoringParenImpCasts(
                                                    declRefExpr(to(varDecl().bind("taken"))))))))),
               *F.getBody(), Ast)) {
      if (const auto *Lambda = Nodes.getNodeAs<LambdaExpr>("lambda")) {
        for (const LambdaCapture &Capture : Lambda->captures()) // `[&]`'s too
          if (Capture.capturesVariable())
            if (const auto *Var = dyn_cast<VarDecl>(Capture.getCapturedVar()))
              Found.Unfollowed.insert(Var);
      }
      if (const auto *Var = Nodes.getNodeAs<VarDecl>("taken"))
        Found.Unfollowed.insert(Var);
    }
    Found.Reaching = std::make_unique<ReachingDefinitions>(
        F, [&](const VarDecl &Var) { return isTensorLocal(Var) && !Found.Unfollowed.count(&Var); });
    return Found;
  }

  /// The node of the value `Assignment` gives `Var`.
  unsigned definitionNode(const Expr &Assignment, const VarDecl &Var) {
    auto [Entry, New] = DefinitionNodes.try_emplace(&Assignment, 0);
    if (New) {
      Entry->second = fresh();
      VarDefinitions[&Var].push_back(Entry->second);
      if (ReadByAll.count(&Var))
        unite(nodeOf(&Var), Entry->second);
    }
    return Entry->second;
  }

  /// The values `Read` may see: the definitions reaching it; all of the
  /// local's when the CFG does not say (then so do those made later).
  unsigned reached(const DeclRefExpr &Read, const VarDecl &Var) {
    const auto *Owner = cast<FunctionDecl>(Var.getParentFunctionOrMethod());
    const auto *Definitions = definitionsIn(*Owner).Reaching->at(Read);
    if (!Definitions || Definitions->empty()) {
      ReadByAll.insert(&Var);
      unsigned All = nodeOf(&Var);
      for (unsigned Definition : VarDefinitions[&Var])
        All = unite(All, Definition);
      return All;
    }
    unsigned Into = NoNode;
    for (const void *Definition : *Definitions)
      Into = unite(Into, Definition == &Var ? nodeOf(&Var)
                                            : definitionNode(*static_cast<const Expr *>(Definition), Var));
    return Into;
  }

  // --- The functions analysed ---
  void collectFunctions(Decl *D) {
    if (!D)
      return;
    if (auto *Context = dyn_cast<DeclContext>(D))
      if (!isa<FunctionDecl>(D))
        for (Decl *Inner : Context->decls())
          collectFunctions(Inner);
    if (auto *Template = dyn_cast<FunctionTemplateDecl>(D))
      collectFunctions(Template->getTemplatedDecl());
    if (auto *Template = dyn_cast<ClassTemplateDecl>(D))
      collectFunctions(Template->getTemplatedDecl());
    const auto *F = dyn_cast<FunctionDecl>(D);
    if (F && F->doesThisDeclarationHaveABody() && Whole.IsMigrated(F->getLocation()))
      Functions.push_back(F);
    if (const auto *Field = dyn_cast<FieldDecl>(D);
        Field && Field->hasInClassInitializer() && Whole.IsMigrated(Field->getLocation()))
      Fields.push_back(Field);
  }

  /// One round over every function; true if it learnt that a selection
  /// belongs on the device (joinHostSelections()).
  bool analyseAll() {
    Parent.clear();
    Classes.clear();
    DeclNodes.clear();
    DefinitionNodes.clear();
    VarDefinitions.clear();
    ReadByAll.clear();
    ReturnNodes.clear();
    ExprNodes.clear();
    ParamFieldNodes.clear();
    SiteFunctions.clear();
    TensorWork.clear();
    Crossings.clear();
    CrossingAt.clear();
    HostSelections.clear();
    Copies.clear();
    DeviceNode = NoNode;
    ConstructionNode = NoNode;
    for (const FieldDecl *Field : Fields) {
      Function = nullptr;
      unite(nodeOf(Field), value(Field->getInClassInitializer()));
    }
    for (const FunctionDecl *F : Functions)
      analyse(*F);
    return joinHostSelections();
  }

  void analyse(const FunctionDecl &F) {
    const FunctionDecl *Outer = Function;
    Function = &F;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&F)) {
      for (const CXXCtorInitializer *Init : Ctor->inits()) {
        if (!Init->isWritten())
          continue;
        const unsigned Value = value(Init->getInit());
        if (Init->getMember() && holdsTensors(Init->getMember()->getType()))
          unite(nodeOf(Init->getMember()), Value);
      }
    }
    for (const ParmVarDecl *Param : F.parameters())
      if (holdsTensors(Param->getType()))
        nodeOf(Param);
    walk(F.getBody());
    Function = Outer;
  }

  PlacementSummary summarize(const FunctionDecl &F) {
    PlacementSummary Summary;
    Summary.TensorWork = TensorWork.count(&F);
    for (const ParmVarDecl *Param : F.parameters()) {
      ParameterNeed Need = ParameterNeed::None;
      if (holdsTensors(Param->getType())) {
        const Facts &Class = factsOf(nodeOf(Param));
        const bool Written = Class.HostWrite && WrittenParams.count(Param);
        Need = Class.Device ? ParameterNeed::Device
               : Written    ? ParameterNeed::HostWrite
               : Class.Kept ? ParameterNeed::Kept
                            : ParameterNeed::None;
      }
      Summary.Parameters.push_back(Need);
    }
    if (holdsTensors(F.getReturnType())) {
      const Facts &Class = factsOf(returnNode(F));
      if (Class.Device)
        Summary.Returns = {ReturnSummary::Device, 0};
      else if (auto Param = llvm::find_if(Class.Params, [&](const ParmVarDecl *P) {
                 return P->getDeclContext() == &F;
               });
               Param != Class.Params.end())
        Summary.Returns = {ReturnSummary::Parameter, (*Param)->getFunctionScopeIndex()};
      else if (Class.Host || Class.FromHost || Class.HostWrite || holdsHostCopy(returnNode(F)))
        Summary.Returns = {ReturnSummary::HostBuilt, 0}; // nothing here moves it: on the host
      else if (const auto *Member = dyn_cast_or_null<FieldDecl>(Class.ThroughDevice))
        Summary.Returns = {ReturnSummary::ThroughMember, 0, usrOf(Member)};
    }
    return Summary;
  }

  /// True if a tensor host code built is copied into `N`'s class as it is
  /// (`return {x, y};` of host-built rows): the class holds host tensors.
  bool holdsHostCopy(unsigned N) {
    const unsigned Root = find(N);
    return llvm::any_of(Crossings, [&](const std::pair<unsigned, unsigned> &Crossing) {
      return find(Crossing.second) == Root;
    });
  }

  // --- Statements ---
  void walk(const Stmt *S) {
    if (!S)
      return;
    if (const auto *E = dyn_cast<Expr>(S)) {
      value(E);
      return;
    }
    if (const auto *Declaration = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : Declaration->decls())
        declare(D);
      return;
    }
    if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
      const unsigned Value = value(Return->getRetValue());
      if (Function && Value != NoNode && holdsTensors(Function->getReturnType()))
        unite(returnNode(*Function), Value);
      return;
    }
    if (const auto *Loop = dyn_cast<CXXForRangeStmt>(S)) {
      walk(Loop->getInit());
      const unsigned Range = value(Loop->getRangeInit());
      if (holdsTensors(Loop->getLoopVariable()->getType()))
        unite(nodeOf(Loop->getLoopVariable()), Range);
      walk(Loop->getBody());
      return;
    }
    for (const Stmt *Child : S->children())
      walk(Child);
  }

  void declare(const Decl *D) {
    if (const auto *Decomposition = dyn_cast<DecompositionDecl>(D)) {
      const unsigned Whole = value(Decomposition->getInit());
      for (const BindingDecl *Binding : Decomposition->bindings())
        if (holdsTensors(Binding->getType()))
          unite(nodeOf(Binding), Whole);
      return;
    }
    const auto *Var = dyn_cast<VarDecl>(D);
    if (!Var || !Var->getInit())
      return;
    const unsigned Init = value(Var->getInit());
    if (holdsTensors(Var->getType()))
      unite(nodeOf(Var), Init);
  }

  // --- Expressions ---
  /// The node of `E`'s value (NoNode when it holds no tensor), after
  /// evaluating every expression in it once.
  unsigned value(const Expr *E) {
    if (!E)
      return NoNode;
    E = E->IgnoreParens();
    if (auto Found = ExprNodes.find(E); Found != ExprNodes.end())
      return Found->second;
    const unsigned N = compute(*E);
    const unsigned Node = N == NoNode && holdsTensors(E->getType()) ? fresh() : N;
    ExprNodes[E] = Node;
    if (Node != NoNode && Function)
      TensorWork.insert(Function);
    return Node;
  }

  /// `E` taken by an operation: a tensor the host builds is copied there
  /// (HostBuiltTensorRule moves it at that use), so it ends its class.
  unsigned operand(const Expr *E) {
    const unsigned N = value(E);
    if (N == NoNode || !factsOf(N).Host)
      return N;
    const unsigned Copy = fresh();
    Crossings.push_back({N, Copy});
    CrossingAt[bare(E)] = Copy;
    return Copy;
  }

  /// Every tensor-holding operand of `Call` (its object and arguments),
  /// through `Take` (value or operand), united.
  unsigned uniteOperands(const CallExpr &Call, unsigned Into, bool AsOperands = true) {
    auto Take = [&](const Expr *Arg) { return AsOperands ? operand(Arg) : value(Arg); };
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call))
      Into = unite(Into, Take(Member->getImplicitObjectArgument()));
    for (const Expr *Arg : Call.arguments())
      Into = unite(Into, Take(Arg));
    return Into;
  }

  /// Evaluates `Call`'s object and arguments, joining nothing. `Unseen`: a
  /// function the analysis cannot see, where its tensor arguments escape.
  void evaluate(const CallExpr &Call, bool Unseen = false) {
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call))
      value(Member->getImplicitObjectArgument());
    for (const Expr *Arg : Call.arguments())
      if (const unsigned N = value(Arg); Unseen && N != NoNode)
        factsOf(N).Escapes = true;
  }

  /// A new site: a tensor this expression makes.
  unsigned site(const Expr &E) {
    const unsigned N = fresh();
    if (Function)
      SiteFunctions[&E] = Function;
    return N;
  }

  unsigned compute(const Expr &E) {
    if (const auto *Cleanups = dyn_cast<FullExpr>(&E))
      return value(Cleanups->getSubExpr());
    if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(&E))
      return value(Temporary->getSubExpr());
    if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(&E))
      return value(Bind->getSubExpr());
    if (const auto *Cast = dyn_cast<CastExpr>(&E))
      return value(Cast->getSubExpr());
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(&E))
      return value(Default->getExpr());
    if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(&E))
      return value(Default->getExpr());
    if (const auto *Ref = dyn_cast<DeclRefExpr>(&E)) {
      const ValueDecl *D = Ref->getDecl();
      if (!isa<VarDecl, BindingDecl>(D) || !holdsTensors(D->getType()))
        return NoNode;
      if (const auto *Var = dyn_cast<VarDecl>(D); Var && isFollowedByDefinition(*Var))
        return reached(*Ref, *Var);
      return nodeOf(D);
    }
    if (const auto *Member = dyn_cast<MemberExpr>(&E))
      return member(*Member);
    if (const auto *Choice = dyn_cast<AbstractConditionalOperator>(&E)) {
      value(Choice->getCond());
      return unite(value(Choice->getTrueExpr()), value(Choice->getFalseExpr()));
    }
    if (const auto *Lambda = dyn_cast<LambdaExpr>(&E)) {
      for (const Expr *Capture : Lambda->capture_inits())
        value(Capture);
      if (const CXXMethodDecl *Call = Lambda->getCallOperator())
        analyse(*Call);
      return NoNode;
    }
    // A copy is the tensor it copies; a container, pair or tuple built of
    // tensors holds them (a host-built one as a copy, as above).
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(&E)) {
      if (Construct->getNumArgs() == 1 && isTensorType(E.getType()))
        return value(Construct->getArg(0));
      unsigned Into = NoNode;
      for (const Expr *Arg : Construct->arguments())
        Into = unite(Into, operand(Arg));
      return holdsTensors(E.getType()) ? Into : escapes(Into);
    }
    if (isa<InitListExpr, CXXStdInitializerListExpr>(E)) {
      unsigned Into = NoNode;
      for (const Stmt *Child : E.children())
        Into = unite(Into, operand(dyn_cast_or_null<Expr>(Child)));
      return holdsTensors(E.getType()) ? Into : escapes(Into);
    }
    if (const auto *Call = dyn_cast<CallExpr>(&E))
      return call(*Call);
    for (const Stmt *Child : E.children())
      if (const auto *Sub = dyn_cast_or_null<Expr>(Child))
        value(Sub);
      else
        walk(Child);
    return NoNode;
  }

  /// Host code writes the memory of `Written` (a tensor or a view of one),
  /// whose node is `N`: its class is colocated with host memory, and a
  /// parameter it names is one its function writes (ParameterNeed::HostWrite;
  /// not one merely computed with the written tensor).
  void hostWrites(const Expr &Written, unsigned N) {
    factsOf(N).HostWrite = true;
    if (const auto *Param = dyn_cast_or_null<ParmVarDecl>(viewedTensor(Written)))
      WrittenParams.insert(Param);
  }

  /// Tensors stored into an object the analysis does not follow (a struct
  /// of the program built from them, `Batch{input, target}`): they escape.
  unsigned escapes(unsigned N) {
    if (N != NoNode)
      factsOf(N).Escapes = true;
    return NoNode;
  }

  unsigned member(const MemberExpr &Member) {
    const unsigned Base = value(Member.getBase());
    const auto *Field = dyn_cast<FieldDecl>(Member.getMemberDecl());
    if (!Field || !holdsTensors(Field->getType()))
      return NoNode;
    // LibTorch's modules' members are their parameters and buffers.
    if (isLibraryDecl(Field)) {
      const auto *Owner = dyn_cast<CXXRecordDecl>(Field->getParent());
      if (Owner && isOrDerivesFrom(Owner, "torch::nn::Module"))
        return deviceNode();
      return Base != NoNode ? Base : fresh(); // an Example's data, a pair's first
    }
    // `view.pose` of a parameter `const View &view`: what the caller's
    // object holds, a tensor its factories can follow (as a tensor
    // parameter's), not the member every object of the class shares.
    if (const auto *Ref = dyn_cast<DeclRefExpr>(bare(Member.getBase())); Ref && !Member.isArrow())
      if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl());
          Param && isTensorType(Field->getType()) && !holdsTensors(Param->getType()))
        return paramFieldNode(*Param, *Field);
    return nodeOf(Field);
  }

  unsigned paramFieldNode(const ParmVarDecl &Param, const FieldDecl &Field) {
    auto [Entry, New] = ParamFieldNodes.try_emplace({&Param, &Field}, 0);
    if (New) {
      Entry->second = fresh();
      Classes[Entry->second].ParamFields.push_back({&Param, &Field});
    }
    return Entry->second;
  }

  unsigned call(const CallExpr &Call) {
    const FunctionDecl *Callee = Call.getDirectCallee();
    const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
    const Expr *Object = Member ? Member->getImplicitObjectArgument() : nullptr;
    switch (effectOf(Call)) {
    case TensorEffect::Create:
    case TensorEffect::CreateFromValues:
      return factory(Call);
    case TensorEffect::HostMemory: {
      for (const Expr *Arg : Call.arguments())
        value(Arg);
      return site(Call);
    }
    case TensorEffect::CreateLike:
      return unite(site(Call), uniteOperands(Call, NoNode));
    case TensorEffect::View:
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call)) {
        // `t[idx]` with a tensor index: where `t` is (host-built indices are copied).
        const unsigned Base = value(Op->getArg(0));
        for (unsigned I = 1; I < Op->getNumArgs(); ++I)
          unite(Base, operand(Op->getArg(I)));
        return Base;
      }
      if (Object) {
        // `t.index({idx})`, as `t[idx]`: its index tensors are where `t` is.
        // A tensor argument (`x.view_as(y)`) only lends its shape.
        const unsigned Base = value(Object);
        for (const Expr *Arg : Call.arguments())
          if (holdsTensors(Arg->getType()) && !isTensorType(Arg->getType()))
            unite(Base, operand(Arg));
          else
            value(Arg);
        return Base;
      }
      return uniteOperands(Call, NoNode, /*AsOperands=*/false);
    case TensorEffect::Select:
      return select(Call, Object ? Object : Call.getArg(0));
    case TensorEffect::Transfer:
      return transfer(Call, Object);
    case TensorEffect::WriteElements:
      return writeElements(Call);
    case TensorEffect::Accumulate: {
      // `t.add_(x)`, `t += x`: computed into `t`, where `x` is.
      const unsigned Target = Object ? value(Object) : value(Call.getArg(0));
      for (unsigned I = Object ? 0 : 1; I < Call.getNumArgs(); ++I)
        unite(Target, operand(Call.getArg(I)));
      return Target;
    }
    case TensorEffect::HostAccess: {
      const unsigned Target = Object ? value(Object) : NoNode;
      for (const Expr *Arg : Call.arguments())
        value(Arg);
      if (Target != NoNode && Member && isWriteAccess(Ast, *Member))
        hostWrites(*Object, Target);
      return NoNode;
    }
    case TensorEffect::HostValue:
    case TensorEffect::Compute:
    case TensorEffect::Join: {
      const unsigned Operands = uniteOperands(Call, NoNode);
      return holdsTensors(Call.getType()) ? unite(fresh(), Operands) : NoNode;
    }
    case TensorEffect::Query:
      evaluate(Call);
      return NoNode;
    case TensorEffect::NotLibTorch:
      break;
    }
    if (isModuleCall(Call)) {
      if (Function)
        TensorWork.insert(Function);
      // Where the module's parameters are: on the host while it is made
      // (what registers a buffer there moves with the module: the device).
      const unsigned Module = Function && DuringConstruction.count(Function->getCanonicalDecl()) &&
                                      runsModule(Call)
                                  ? constructionNode()
                                  : deviceNode();
      for (const Expr *Arg : Call.arguments())
        unite(Module, operand(Arg));
      if (Object)
        value(Object);
      return holdsTensors(Call.getType()) ? Module : NoNode;
    }
    // `a = b`: `a` names `b`'s tensor from now on. A tensor the host built
    // is copied where `a` is needed (it is not `a`'s every value).
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
        Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        holdsTensors(Op->getArg(0)->getType())) {
      const auto *Ref = dyn_cast<DeclRefExpr>(bare(Op->getArg(0)));
      if (const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr) {
        Assigned.insert(Param);
        // `out = ...` with `Tensor &out`: the value leaves the function, as the caller's tensor.
        if (Param->getType()->isLValueReferenceType()) {
          const unsigned Given = unite(value(Op->getArg(0)), operand(Op->getArg(1)));
          factsOf(Given).Escapes = true;
          return Given;
        }
      }
      // A local's new value, from here to its next assignment.
      if (const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
          Var && isFollowedByDefinition(*Var)) {
        const unsigned Definition = definitionNode(*Op, *Var);
        ExprNodes[Op->getArg(0)->IgnoreParens()] = Definition;
        return unite(Definition, operand(Op->getArg(1)));
      }
      return unite(value(Op->getArg(0)), operand(Op->getArg(1)));
    }
    if (Callee && isInStandardLibrary(*Callee))
      return standardLibrary(Call, *Callee);
    if (Callee)
      if (const PlacementSummary *Summary = calleeSummary(*Callee))
        return summarized(Call, *Callee, *Summary);
    // A library transform's method (`Normalize<>(...)(image)`: per-sample
    // code, PerSampleCode.h) reads what it is handed on the host
    // (PerSampleCallRule brings a device tensor there) and keeps none of it:
    // it does not escape. It returns a new tensor, moved where device code
    // takes it.
    if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
        Method && isPerSampleClass(Method->getParent())) {
      evaluate(Call);
      return holdsTensors(Call.getType()) ? site(Call) : NoNode;
    }
    evaluate(Call, /*Unseen=*/true); // what it returns is received as it is
    return holdsTensors(Call.getType()) ? site(Call) : NoNode;
  }

  /// `t.index_select(0, idx)`, `torch::gather(t, 1, idx)`: some of `Selected`'s
  /// elements, computed where its operands are. Of a tensor the host builds,
  /// the selection is made on the host with its indices, and only it is
  /// copied where device code takes it (HostBuiltTensorRule moves the
  /// selection, not all it selects from: a batch, not the replay buffer),
  /// unless an index is the device's already.
  ///
  /// Whether an index is the device's is known only once every use of it is
  /// seen (`buffer.index_select(0, idx)` may come before
  /// `logprobs.index_select(0, idx)` with `logprobs` on the device): the
  /// indices join the host selection at the end of the round
  /// (joinHostSelections()), and a selection whose index turned out the
  /// device's is computed there from the next round on.
  unsigned select(const CallExpr &Call, const Expr *Selected) {
    if (const unsigned Base = value(Selected);
        Base != NoNode && factsOf(Base).Host && !SelectionsOnDevice.count(&Call)) {
      HostSelection Selection{&Call, Base, {}};
      for (const Expr *Arg : Call.arguments())
        if (Arg != Selected)
          if (const unsigned Index = value(Arg); Index != NoNode)
            Selection.Indices.push_back(Index);
      HostSelections.push_back(std::move(Selection));
      return unite(fresh(), Base);
    }
    return unite(fresh(), uniteOperands(Call, NoNode)); // computed where its operands are
  }

  /// The end of a round for select()'s host selections: indices the device
  /// needs make their selection the device's (true if one did, for another
  /// round); the others are made on the host with what they select from.
  bool joinHostSelections() {
    bool Moved = false;
    for (const HostSelection &Selection : HostSelections) {
      if (llvm::any_of(Selection.Indices, [&](unsigned Index) { return factsOf(Index).Device; })) {
        Moved |= SelectionsOnDevice.insert(Selection.Call).second;
        continue;
      }
      for (unsigned Index : Selection.Indices)
        unite(Selection.Base, Index);
    }
    return Moved;
  }

  /// `torch::zeros(n, opts)`: a new site, where its options' tensor is
  /// (`x.options()`, `x.device()`) or the device a device expression names.
  unsigned factory(const CallExpr &Call) {
    const unsigned Site = site(Call);
    for (const Expr *Arg : Call.arguments()) {
      const unsigned Value = value(Arg);
      if (isTensorOptionsType(Arg->getType()) || isDeviceExpression(*ignoreConversions(Arg))) {
        unite(Site, optionsPlace(*Arg));
        // Options naming the CPU alone (`torch::TensorOptions(device)`, a
        // device every construction hands `torch::kCPU`): a host tensor by
        // the program's choice, as a `.to(torch::kCPU)` copy is.
        if (namesOnlyTheCpu(*ignoreConversions(Arg), cpuDevices()))
          factsOf(Site).FromHost = true;
        else if (const ValueDecl *Device = Whole.KnowsEveryDevice ? nullptr : deviceNamedBy(*Arg))
          factsOf(Site).ThroughDevice = Device;
      }
      (void)Value;
    }
    return Site;
  }

  /// What the program says of its device parameters and members (none in a
  /// parse that knows nothing of them).
  CpuDevices cpuDevices() const {
    return Whole.IsCpuDevice ? CpuDevices(Whole.IsCpuDevice) : CpuDevices();
  }

  /// The one device parameter or member options name, and nothing else
  /// that could choose (`torch::TensorOptions(device)`, `.device(device_)`
  /// after a dtype); null otherwise.
  static const ValueDecl *deviceNamedBy(const Expr &Options) {
    const ValueDecl *Named = nullptr;
    bool Other = false;
    std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
      if (!S || Other)
        return;
      if (isa<AbstractConditionalOperator>(S))
        Other = true;
      const ValueDecl *Device = nullptr;
      if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && isa<ParmVarDecl>(Ref->getDecl()))
        Device = Ref->getDecl();
      else if (const auto *Member = dyn_cast<MemberExpr>(S); Member && isa<FieldDecl>(Member->getMemberDecl()))
        Device = Member->getMemberDecl();
      if (Device && (isDeviceType(Device->getType()) || isDeviceTypeEnum(Device->getType()))) {
        Other |= Named && Named != Device;
        Named = Device;
        return;
      }
      for (const Stmt *Child : S->children())
        Visit(Child);
    };
    Visit(&Options);
    return Other ? nullptr : Named;
  }

  /// The class a tensor-options or device expression puts a factory in: a
  /// tensor's (`x.options()`, `x.device()`), or none (a dtype, the program's
  /// device, which is the caller's choice).
  unsigned optionsPlace(const Expr &Options) {
    unsigned Into = NoNode;
    const Expr *Bare = Options.IgnoreImplicit();
    if (const auto *Method = dyn_cast<CXXMemberCallExpr>(Bare)) {
      const Expr *Object = Method->getImplicitObjectArgument();
      if (Object && isTensorType(Object->getType()))
        return value(Object);
    }
    for (const Stmt *Child : Bare->children())
      if (const auto *Sub = dyn_cast_or_null<Expr>(Child))
        Into = unite(Into, optionsPlace(*Sub));
    return Into;
  }

  unsigned transfer(const CallExpr &Call, const Expr *Object) {
    const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
    const unsigned Source = Object ? value(Object) : NoNode;
    for (const Expr *Arg : Call.arguments())
      value(Arg);
    if (!Member)
      return Source;
    const StringRef Name = Member->getMethodDecl()->getName();
    if (Name == "type_as" && Call.getNumArgs())
      return value(Call.getArg(0));
    if (!isDeviceTransfer(*Member))
      return Source; // a dtype conversion, pinned memory: where the tensor is
    if (Name == "cpu" || isBroughtToHost(Call, cpuDevices())) {
      const unsigned Copy = fresh(); // a host copy
      Classes[Copy].FromHost = true;
      return Copy;
    }
    const Expr *Target = Call.getNumArgs() ? ignoreConversions(Call.getArg(0))->IgnoreImplicit() : nullptr;
    if (const auto *Device = Target ? dyn_cast<CXXMemberCallExpr>(Target) : nullptr;
        Device && Device->getImplicitObjectArgument() &&
        isTensorType(Device->getImplicitObjectArgument()->getType()))
      return value(Device->getImplicitObjectArgument()); // `.to(x.device())`
    if (const auto *Member = Target ? dyn_cast<MemberExpr>(Target->IgnoreParens()) : nullptr;
        Member && !Whole.KnowsEveryDevice)
      if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
          Field && isDeviceExpression(*Member)) {
        const unsigned Copy = fresh(); // where the program's constructions put `device_`
        Classes[Copy].ThroughDevice = Field;
        return Copy;
      }
    return deviceNode();
  }

  unsigned writeElements(const CallExpr &Call) {
    const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
    const Expr *Target = Member ? Member->getImplicitObjectArgument() : Call.getArg(0);
    const unsigned Written = value(Target);
    bool HostValues = true;
    unsigned Source = NoNode;
    for (unsigned I = Member ? 0 : 1; I < Call.getNumArgs(); ++I) {
      Source = value(Call.getArg(I));
      HostValues &= holdsOnlyHostValues(*Call.getArg(I));
    }
    // A copy takes its source from any device: `copy_`, and `t[i] = row`
    // (an rvalue's assignment from a tensor is a copy_). Other writes are
    // done where the written tensor is, with their indices and values there
    // too: the host's values (`mask.index_put_({torch::tensor(ids)}, 1)`)
    // where it is, a tensor computed elsewhere (`t.index_put_({picked}, 1)`)
    // bringing it to that tensor.
    if (copiesFromAnyDevice(Call)) {
      if (Written != NoNode && Source != NoNode)
        Copies.push_back({Written, Source, dyn_cast_or_null<FieldDecl>(viewedTensor(*Target))});
      return Written;
    }
    for (unsigned I = Member ? 0 : 1; I < Call.getNumArgs(); ++I)
      unite(Written, HostValues ? value(Call.getArg(I)) : operand(Call.getArg(I)));
    return Written;
  }

  /// `v.push_back(t)`, `std::make_pair(a, b)`, `std::get<0>(p)`: a container
  /// and what it holds are one class. A tensor the host builds is copied
  /// where taken, so it does not bring its siblings to the host.
  unsigned standardLibrary(const CallExpr &Call, const FunctionDecl &Callee) {
    if (Callee.getIdentifier() && (Callee.getName() == "move" || Callee.getName() == "forward") &&
        Call.getNumArgs() == 1)
      return value(Call.getArg(0));
    unsigned Into = NoNode;
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call))
      Into = value(Member->getImplicitObjectArgument());
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
    for (unsigned I = 0; I < Call.getNumArgs(); ++I)
      Into = unite(Into, Op && I == 0 ? value(Call.getArg(I)) : operand(Call.getArg(I)));
    return holdsTensors(Call.getType()) ? Into : NoNode;
  }

  /// A call of a function of the program, through its summary.
  unsigned summarized(const CallExpr &Call, const FunctionDecl &Callee, const PlacementSummary &Summary) {
    // A member operator's first argument is its object.
    const unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call))
      value(Member->getImplicitObjectArgument());
    std::vector<unsigned> Args;
    for (unsigned I = 0; I < Call.getNumArgs(); ++I) {
      const unsigned Param = I - Shift;
      const ParameterNeed Need =
          I >= Shift && Param < Summary.Parameters.size() ? Summary.Parameters[Param] : ParameterNeed::None;
      const unsigned Arg = Need == ParameterNeed::Device ? operand(Call.getArg(I)) : value(Call.getArg(I));
      if (Need == ParameterNeed::Device)
        unite(deviceNode(), Arg);
      else if (Need == ParameterNeed::HostWrite && Arg != NoNode) {
        hostWrites(*Call.getArg(I), Arg);
        // A member handed to a function that writes it (`read(weights_,
        // file)`): host-written as one its class's code writes itself.
        if (const auto *Field = dyn_cast_or_null<FieldDecl>(viewedTensor(*Call.getArg(I))))
          WrittenFields.insert(Field);
      }
      else if (Need == ParameterNeed::Kept && Arg != NoNode)
        factsOf(Arg).Escapes = factsOf(Arg).Kept = true; // `a.set_position(p)`: a member holds it
      if (I >= Shift)
        Args.push_back(Arg);
    }
    if (!holdsTensors(Call.getType()))
      return NoNode;
    switch (Summary.Returns.What) {
    case ReturnSummary::Device:
    case ReturnSummary::ThroughMember: // this pass's summary, not the program's: as before it
      return deviceNode();
    case ReturnSummary::Parameter:
      if (Summary.Returns.Index < Args.size() && Args[Summary.Returns.Index] != NoNode)
        return Args[Summary.Returns.Index];
      return site(Call);
    case ReturnSummary::HostBuilt: {
      // Built on the host whatever it is given: ReceivedTensorRule moves it
      // where it is received, so what the caller holds is that copy.
      // (Not FromHost: the rule moves such a result where it is received,
      // device code or not, so the copy is the device's.)
      const unsigned Result = site(Call);
      Classes[Result].Host = true;
      const unsigned Copy = fresh();
      Crossings.push_back({Result, Copy});
      CrossingAt[bare(&Call)] = Copy;
      return Copy;
    }
    case ReturnSummary::New:
      break;
    }
    return site(Call);
  }

  ASTContext &Ast;
  Program Whole;
  std::vector<const FunctionDecl *> Functions;
  std::vector<const FieldDecl *> Fields;
  llvm::DenseMap<const FunctionDecl *, PlacementSummary> Summaries;
  llvm::DenseMap<const VarDecl *, bool> BuiltByHost;
  llvm::DenseMap<const FunctionDecl *, LocalDefinitions> Definitions;

  // One round's state.
  std::vector<unsigned> Parent;
  std::vector<Facts> Classes;
  llvm::DenseMap<const Decl *, unsigned> DeclNodes; ///< a local's is its declaration's value
  llvm::DenseMap<const Expr *, unsigned> DefinitionNodes; ///< an assignment's value
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<unsigned, 2>> VarDefinitions;
  llvm::DenseSet<const VarDecl *> ReadByAll; ///< read where the CFG says nothing
  llvm::DenseMap<const FunctionDecl *, unsigned> ReturnNodes;
  llvm::DenseMap<const Expr *, unsigned> ExprNodes;
  llvm::DenseMap<const Expr *, const FunctionDecl *> SiteFunctions;
  llvm::DenseSet<const FunctionDecl *> TensorWork; ///< functions whose code touches a tensor
  /// A selection from a host-built tensor (select()), its indices' nodes.
  struct HostSelection {
    const CallExpr *Call;
    unsigned Base;
    llvm::SmallVector<unsigned, 2> Indices;
  };
  std::vector<HostSelection> HostSelections;
  /// Selections from a host-built tensor whose indices the device needs: made
  /// there (kept from round to round).
  llvm::DenseSet<const CallExpr *> SelectionsOnDevice;
  std::vector<std::pair<unsigned, unsigned>> Crossings; ///< a host tensor's node, its copy's
  llvm::DenseMap<const Expr *, unsigned> CrossingAt;    ///< the copy made at an operand
  unsigned DeviceNode = NoNode;
  unsigned ConstructionNode = NoNode;
  llvm::DenseSet<const ParmVarDecl *> Assigned; ///< parameters a function assigns (`out = ...`)
  llvm::DenseSet<const ParmVarDecl *> WrittenParams; ///< parameters host code writes (hostWrites())
  llvm::SetVector<const FieldDecl *> WrittenFields; ///< members handed to functions that write them
  /// A copy (`t[i] = row`, `t.copy_(x)`): the written node, the copied one,
  /// and the tensor member written, if it is one (`batch.rows[k] = buffer[i]`:
  /// forEachHostWrittenField()).
  struct Copy {
    unsigned Written, Source;
    const FieldDecl *Field;
  };
  std::vector<Copy> Copies;
  llvm::DenseMap<std::pair<const ParmVarDecl *, const FieldDecl *>, unsigned> ParamFieldNodes;
  llvm::DenseSet<const FunctionDecl *> DuringConstruction; ///< ModuleConstruction.h
  const FunctionDecl *Function = nullptr;
};

PlacementFlow::PlacementFlow(ASTContext &Ast, ArrayRef<Decl *> Decls, Program Whole)
    : State(std::make_unique<Impl>(Ast, Decls, std::move(Whole))) {}
PlacementFlow::~PlacementFlow() = default;

Placement PlacementFlow::of(const Expr &Site) const { return State->of(Site); }
bool PlacementFlow::needsDevice(const Expr &Value) const { return State->needsDevice(Value); }
bool PlacementFlow::isMovedWhereDefined(const VarDecl &Var) const { return State->isMovedWhereDefined(Var); }
bool PlacementFlow::isMovedWhereUsed(const Expr &Use) const { return State->isMovedWhereUsed(Use); }
bool PlacementFlow::staysOnHost(const Expr &Site) const { return State->staysOnHost(Site); }
const PlacementSummary *PlacementFlow::summaryOf(const FunctionDecl &F) const { return State->calleeSummary(F); }
void PlacementFlow::forEachHostChosenField(
    llvm::function_ref<void(const FieldDecl &, const ValueDecl *)> Visit) const {
  State->forEachHostChosenField(Visit);
}
void PlacementFlow::forEachHostWrittenField(llvm::function_ref<void(const FieldDecl &)> Visit) const {
  State->forEachHostWrittenField(Visit);
}
void PlacementFlow::forEachSummary(
    llvm::function_ref<void(const FunctionDecl &, const PlacementSummary &)> Visit) const {
  State->forEachSummary(Visit);
}

// --- Summaries as JSON (the first pass's cache) ---

llvm::json::Value PlacementSummary::toJSON() const {
  llvm::json::Array Needs;
  for (ParameterNeed Need : Parameters)
    Needs.push_back(static_cast<int64_t>(Need));
  return llvm::json::Object{{"parameters", std::move(Needs)},
                            {"returns", static_cast<int64_t>(Returns.What)},
                            {"index", static_cast<int64_t>(Returns.Index)},
                            {"member", Returns.Member},
                            {"tensor-work", TensorWork}};
}

std::optional<PlacementSummary> PlacementSummary::fromJSON(const llvm::json::Value &Value) {
  const llvm::json::Object *Object = Value.getAsObject();
  if (!Object)
    return std::nullopt;
  const llvm::json::Array *Needs = Object->getArray("parameters");
  std::optional<int64_t> Returns = Object->getInteger("returns"), Index = Object->getInteger("index");
  std::optional<bool> TensorWork = Object->getBoolean("tensor-work");
  std::optional<llvm::StringRef> Member = Object->getString("member");
  if (!Needs || !Returns || !Index || !TensorWork || !Member || *Returns < 0 ||
      *Returns > ReturnSummary::ThroughMember)
    return std::nullopt;
  PlacementSummary Summary;
  Summary.TensorWork = *TensorWork;
  for (const llvm::json::Value &Need : *Needs) {
    std::optional<int64_t> N = Need.getAsInteger();
    if (!N || *N < 0 || *N > static_cast<int64_t>(ParameterNeed::Kept))
      return std::nullopt;
    Summary.Parameters.push_back(static_cast<ParameterNeed>(*N));
  }
  Summary.Returns = {static_cast<ReturnSummary::Kind>(*Returns), static_cast<unsigned>(*Index),
                     Member->str()};
  return Summary;
}

} // namespace to_device_migrate
