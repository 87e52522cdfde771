#include "facts/Repetition.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace to_device_migrate {
namespace {

/// The lambda expression whose call operator `F` is; null if it is none.
const LambdaExpr *lambdaOf(ASTContext &Ast, const FunctionDecl &F) {
  const auto *Method = dyn_cast<CXXMethodDecl>(&F);
  if (!Method || !Method->getParent()->isLambda())
    return nullptr;
  for (const DynTypedNode &Parent : Ast.getParents(*Method->getParent()))
    if (const auto *Lambda = Parent.get<LambdaExpr>())
      return Lambda;
  return nullptr;
}

/// The CFG of one function, with the block of each of its elements.
class FunctionGraph {
public:
  FunctionGraph(ASTContext &Ast, const FunctionDecl &F) {
    CFG::BuildOptions Options;
    Options.setAllAlwaysAdd(); // every expression its own element: uses are found as written
    Graph = CFG::buildCFG(&F, F.getBody(), &Ast, Options);
    if (!Graph)
      return;
    for (const CFGBlock *Block : *Graph)
      for (const CFGElement &Element : *Block)
        if (auto Statement = Element.getAs<CFGStmt>())
          BlockOf.try_emplace(Statement->getStmt(), Block);
  }

  /// The block running `S`, or the nearest expression around it the CFG has.
  const CFGBlock *blockOf(ASTContext &Ast, const Stmt &S) const {
    DynTypedNode Node = DynTypedNode::create(S);
    while (true) {
      if (const auto *Statement = Node.get<Stmt>())
        if (const CFGBlock *Block = BlockOf.lookup(Statement))
          return Block;
      DynTypedNodeList Parents = Ast.getParents(Node);
      if (Parents.empty() || Parents[0].get<FunctionDecl>())
        return nullptr;
      Node = Parents[0];
    }
  }

  /// The block declaring `Var` (the CFG gives each declarator its own
  /// DeclStmt); null if no statement of the function declares it.
  const CFGBlock *declaring(const VarDecl &Var) const {
    for (const auto &[Statement, Block] : BlockOf)
      if (const auto *Declaration = dyn_cast<DeclStmt>(Statement);
          Declaration && Declaration->isSingleDecl() && Declaration->getSingleDecl() == &Var)
        return Block;
    return nullptr;
  }

  /// True if a path leaves `From` and comes back to it without entering `Avoid`.
  static bool isOnCycleAvoiding(const CFGBlock &From, const CFGBlock *Avoid) {
    if (&From == Avoid) // entering again passes the declaration first
      return false;
    llvm::DenseSet<const CFGBlock *> Seen;
    llvm::SmallVector<const CFGBlock *, 16> Work;
    auto Follow = [&](const CFGBlock &Block) {
      for (const CFGBlock *Succ : Block.succs())
        if (Succ && Succ != Avoid && Seen.insert(Succ).second)
          Work.push_back(Succ);
    };
    Follow(From);
    while (!Work.empty()) {
      const CFGBlock *Block = Work.pop_back_val();
      if (Block == &From)
        return true;
      Follow(*Block);
    }
    return false;
  }

  explicit operator bool() const { return Graph != nullptr; }

private:
  std::unique_ptr<CFG> Graph;
  llvm::DenseMap<const Stmt *, const CFGBlock *> BlockOf;
};

} // namespace

const FunctionDecl *functionOf(ASTContext &Ast, const Stmt &S) {
  for (DynTypedNodeList Parents = Ast.getParents(S); !Parents.empty(); Parents = Ast.getParents(Parents[0])) {
    if (const auto *F = Parents[0].get<FunctionDecl>())
      return F;
    if (const auto *Lambda = Parents[0].get<LambdaExpr>())
      return Lambda->getCallOperator();
  }
  return nullptr;
}

bool runsAgainWithSame(ASTContext &Ast, const Stmt &Use, const VarDecl *Var) {
  const Stmt *Current = &Use;
  while (const FunctionDecl *F = functionOf(Ast, *Current)) {
    if (!F->getBody())
      return false;
    FunctionGraph Graph(Ast, *F);
    const CFGBlock *Block = Graph ? Graph.blockOf(Ast, *Current) : nullptr;
    if (!Block)
      return false;
    const bool DeclaredHere = Var && Var->getParentFunctionOrMethod() == F;
    if (FunctionGraph::isOnCycleAvoiding(*Block, DeclaredHere ? Graph.declaring(*Var) : nullptr))
      return true;
    // A lambda's body runs again where the lambda is made in a loop.
    const LambdaExpr *Lambda = DeclaredHere ? nullptr : lambdaOf(Ast, *F);
    if (!Lambda)
      return false;
    Current = Lambda;
  }
  return false;
}

const Stmt *enclosingLoop(ASTContext &Ast, const Stmt &S) {
  DynTypedNode Node = DynTypedNode::create(S);
  while (true) {
    DynTypedNodeList Parents = Ast.getParents(Node);
    // Through a local's declaration (`auto d = r[t] + x;`), not past a function.
    if (Parents.empty() || Parents[0].get<LambdaExpr>() ||
        (Parents[0].get<Decl>() && !Parents[0].get<VarDecl>()))
      return nullptr;
    if (const auto *Loop = Parents[0].get<Stmt>();
        Loop && isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Loop))
      return Loop;
    Node = Parents[0];
  }
}

} // namespace to_device_migrate
