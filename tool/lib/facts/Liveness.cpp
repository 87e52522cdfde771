#include "facts/Liveness.h"

#include "clang/Analysis/Analyses/LiveVariables.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "clang/Analysis/CFG.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace to_device_migrate {
namespace {

/// True if `Inner` lies within `Outer`, as the file is written (macros at
/// their expansions).
bool containsRange(const SourceManager &SM, SourceRange Outer, SourceRange Inner) {
  if (Inner.isInvalid() || Outer.isInvalid())
    return false;
  auto At = [&SM](SourceLocation Loc) { return SM.getExpansionLoc(Loc); };
  return !SM.isBeforeInTranslationUnit(At(Inner.getBegin()), At(Outer.getBegin())) &&
         !SM.isBeforeInTranslationUnit(At(Outer.getEnd()), At(Inner.getEnd()));
}

/// The local an assignment element `Var = value` gives a value (the
/// operator call of a class, or the built-in one), and that value; null if
/// the element is not one.
const VarDecl *assignedLocal(const Stmt &Element, const Expr **Value = nullptr) {
  const Expr *Target = nullptr, *Assigned = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Element);
      Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
    Target = Op->getArg(0);
    Assigned = Op->getArg(1);
  } else if (const auto *Assign = dyn_cast<BinaryOperator>(&Element); Assign && Assign->getOpcode() == BO_Assign) {
    Target = Assign->getLHS();
    Assigned = Assign->getRHS();
  }
  const auto *Ref = Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()) : nullptr;
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (Var && Value)
    *Value = Assigned;
  return Var;
}

/// The value an element gives `Var`: `Var = value`, or its declaration's
/// initialiser (null when it has none). `Found` says whether it is one.
const Expr *definitionOf(const Stmt &Element, const VarDecl &Var, bool &Found) {
  Found = false;
  if (const auto *Declaration = dyn_cast<DeclStmt>(&Element)) {
    for (const Decl *D : Declaration->decls())
      if (D == &Var) {
        Found = true;
        return Var.getInit();
      }
    return nullptr;
  }
  const Expr *Value = nullptr;
  Found = assignedLocal(Element, &Value) == &Var;
  return Found ? Value : nullptr;
}

/// The liveness after the last CFG element of `Statement`: observed in
/// reverse order within each block, so the first element met that lies in
/// the statement is its last.
class AfterStatement : public LiveVariables::Observer {
public:
  AfterStatement(const SourceManager &SM, const Stmt &Statement, const VarDecl &Var)
      : SM(SM), Range(Statement.getSourceRange()), Var(Var) {}

  void observeStmt(const Stmt *S, const CFGBlock *Block, const LiveVariables::LivenessValues &Values) override {
    if (!S || !contains(S->getSourceRange()))
      return;
    if (!LastBlock) {
      LastBlock = Block;
      Live = Values.isLive(&Var);
    } else if (Block != LastBlock) {
      SpansBlocks = true;
    }
  }

  std::optional<bool> result() const {
    if (!LastBlock || SpansBlocks)
      return std::nullopt;
    return Live;
  }

private:
  bool contains(SourceRange Inner) const { return containsRange(SM, Range, Inner); }

  const SourceManager &SM;
  SourceRange Range;
  const VarDecl &Var;
  const CFGBlock *LastBlock = nullptr;
  bool SpansBlocks = false;
  bool Live = false;
};

} // namespace

LocalFlow::LocalFlow(const VarDecl &Var) : Var(Var) {
  const auto *Function = dyn_cast_or_null<Decl>(Var.getParentFunctionOrMethod());
  if (!Function || !Function->getBody())
    return;
  Context = std::make_unique<AnalysisDeclContext>(/*Mgr=*/nullptr, Function);
  // Every expression its own element: a read is a DeclRefExpr the transfer
  // functions must see.
  Context->getCFGBuildOptions().setAllAlwaysAdd();
  if (!Context->getCFG())
    Context.reset();
}

LocalFlow::~LocalFlow() = default;

std::optional<bool> LocalFlow::isLiveAfter(const Stmt &Statement) const {
  if (!Context)
    return std::nullopt;
  std::unique_ptr<LiveVariables> Liveness = LiveVariables::computeLiveness(*Context, /*killAtAssign=*/true);
  if (!Liveness)
    return std::nullopt;
  AfterStatement Observer(Var.getASTContext().getSourceManager(), Statement, Var);
  Liveness->runOnAllBlocks(Observer);
  return Observer.result();
}

std::optional<llvm::SmallVector<const Expr *, 2>> LocalFlow::valuesReaching(const Stmt &Statement) const {
  if (!Context)
    return std::nullopt;
  const SourceManager &SM = Var.getASTContext().getSourceManager();
  // Where the statement starts: its first element, in the CFG's order.
  const CFGBlock *Start = nullptr;
  unsigned StartIndex = 0;
  for (const CFGBlock *Block : *Context->getCFG()) {
    for (unsigned I = 0; I < Block->size() && !Start; ++I)
      if (auto Element = (*Block)[I].getAs<CFGStmt>();
          Element && containsRange(SM, Statement.getSourceRange(), Element->getStmt()->getSourceRange())) {
        Start = Block;
        StartIndex = I;
      }
    if (Start)
      break;
  }
  if (!Start)
    return std::nullopt;
  // Backwards along every path, to the nearest definition of each.
  llvm::SmallVector<const Expr *, 2> Values;
  llvm::DenseSet<const CFGBlock *> Seen;
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 8> Work{{Start, StartIndex}};
  while (!Work.empty()) {
    auto [Block, End] = Work.pop_back_val();
    bool Defined = false;
    for (unsigned I = End; I > 0 && !Defined; --I)
      if (auto Element = (*Block)[I - 1].getAs<CFGStmt>()) {
        const Expr *Value = definitionOf(*Element->getStmt(), Var, Defined);
        if (Defined && !llvm::is_contained(Values, Value))
          Values.push_back(Value);
      }
    if (Defined)
      continue;
    if (Block->pred_empty()) { // the function's entry: the value it was given
      if (!llvm::is_contained(Values, nullptr))
        Values.push_back(nullptr);
      continue;
    }
    for (const CFGBlock *Pred : Block->preds())
      if (Pred && Seen.insert(Pred).second)
        Work.push_back({Pred, static_cast<unsigned>(Pred->size())});
  }
  return Values;
}

namespace {
/// The tracked local `Element` defines, and the definition: a declaration
/// (the VarDecl) or an assignment to it (the operator call).
std::pair<const VarDecl *, const void *> definedBy(const Stmt &Element,
                                                   llvm::function_ref<bool(const VarDecl &)> Tracked) {
  if (const auto *Declaration = dyn_cast<DeclStmt>(&Element)) {
    // The CFG gives each declarator its own DeclStmt.
    const auto *Var = Declaration->isSingleDecl() ? dyn_cast<VarDecl>(Declaration->getSingleDecl()) : nullptr;
    return Var && Tracked(*Var) ? std::make_pair(Var, static_cast<const void *>(Var))
                                : std::make_pair(nullptr, nullptr);
  }
  if (const VarDecl *Var = assignedLocal(Element); Var && Tracked(*Var))
    return {Var, &Element};
  return {nullptr, nullptr};
}
} // namespace

ReachingDefinitions::ReachingDefinitions(const FunctionDecl &Function,
                                         llvm::function_ref<bool(const VarDecl &)> Tracked) {
  if (!Function.getBody())
    return;
  AnalysisDeclContext Context(/*Mgr=*/nullptr, &Function);
  Context.getCFGBuildOptions().setAllAlwaysAdd();
  const CFG *Graph = Context.getCFG();
  if (!Graph)
    return;
  using State = llvm::DenseMap<const VarDecl *, llvm::SmallVector<const void *, 2>>;
  auto Transfer = [&](const CFGBlock &Block, State Now, bool Record) {
    for (const CFGElement &Element : Block) {
      auto Statement = Element.getAs<CFGStmt>();
      if (!Statement)
        continue;
      const Stmt *S = Statement->getStmt();
      if (auto [Var, Definition] = definedBy(*S, Tracked); Var)
        Now[Var] = {Definition};
      else if (const auto *Read = dyn_cast<DeclRefExpr>(S); Record && Read)
        if (const auto *Var = dyn_cast<VarDecl>(Read->getDecl()); Var && Tracked(*Var))
          AtRead[Read] = Now.lookup(Var);
    }
    return Now;
  };
  auto Merge = [](State &Into, const State &From) {
    bool Changed = false;
    for (const auto &[Var, Definitions] : From)
      for (const void *Definition : Definitions)
        if (!llvm::is_contained(Into[Var], Definition)) {
          Into[Var].push_back(Definition);
          Changed = true;
        }
    return Changed;
  };
  // Forward, to a fixed point: what reaches a block is what leaves its predecessors.
  llvm::DenseMap<const CFGBlock *, State> Out;
  llvm::SmallVector<const CFGBlock *, 16> Work(Graph->begin(), Graph->end());
  llvm::DenseSet<const CFGBlock *> Queued(Graph->begin(), Graph->end());
  auto In = [&](const CFGBlock &Block) {
    State Entering;
    for (const CFGBlock *Pred : Block.preds())
      if (Pred)
        if (auto Found = Out.find(Pred); Found != Out.end())
          Merge(Entering, Found->second);
    return Entering;
  };
  while (!Work.empty()) {
    const CFGBlock *Block = Work.pop_back_val();
    Queued.erase(Block);
    State Leaving = Transfer(*Block, In(*Block), /*Record=*/false);
    if (!Merge(Out[Block], Leaving)) // what leaves only grows: every block starts queued
      continue;
    for (const CFGBlock *Succ : Block->succs())
      if (Succ && Queued.insert(Succ).second)
        Work.push_back(Succ);
  }
  for (const CFGBlock *Block : *Graph)
    Transfer(*Block, In(*Block), /*Record=*/true);
}

} // namespace to_device_migrate
