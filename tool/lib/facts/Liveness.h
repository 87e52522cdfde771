// What a local holds around a statement, from the CFG of its function rather
// than from where its uses are written: "is it read afterwards?" (Clang's
// LiveVariables: a use earlier in a loop's body reads a later write only when
// the variable outlives the turn, and an assignment in between kills it), and
// "which values can it hold here?" (the definitions reaching the statement,
// found backwards along every path).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>

namespace clang {
class AnalysisDeclContext;
}

namespace to_device_migrate {

/// The CFG of one local's function (every expression its own element),
/// built once and asked both questions.
class LocalFlow {
public:
  explicit LocalFlow(const clang::VarDecl &Var);
  ~LocalFlow();
  LocalFlow(const LocalFlow &) = delete;
  LocalFlow &operator=(const LocalFlow &) = delete;

  /// Whether the local may be read after `Statement` (a statement of a
  /// block of its function) runs: on any path, on a loop's next turn
  /// included. None when the CFG cannot say (no CFG, or the statement's code
  /// spans several blocks): callers assume it is.
  std::optional<bool> isLiveAfter(const clang::Stmt &Statement) const;

  /// The values the local may hold when `Statement` starts: its initialiser
  /// and the values assigned to it (`Var = value`) that reach it along some
  /// path, with null for the value it enters the function with (a parameter,
  /// a local declared without an initialiser). None when the CFG cannot say.
  std::optional<llvm::SmallVector<const clang::Expr *, 2>> valuesReaching(const clang::Stmt &Statement) const;

private:
  const clang::VarDecl &Var;
  std::unique_ptr<clang::AnalysisDeclContext> Context; ///< null when there is no CFG
};

/// The definitions of a function's locals that reach each read of them:
/// for a tracked local, its declaration (the VarDecl: its initialiser) or an
/// assignment `Var = value` (the operator call); a forward dataflow over the
/// CFG, every expression its own element. Reads of a local in one statement
/// see what that statement's earlier parts left (`x = f(x)`: the old `x`).
class ReachingDefinitions {
public:
  /// `Tracked` says which locals to follow. An empty result (no CFG) has no
  /// reads: callers treat every read as reached by all definitions.
  ReachingDefinitions(const clang::FunctionDecl &Function,
                      llvm::function_ref<bool(const clang::VarDecl &)> Tracked);

  /// The definitions reaching `Read` (a VarDecl or an assignment), or null
  /// when the CFG has no such read (not evaluated, or in a lambda's body).
  const llvm::SmallVector<const void *, 2> *at(const clang::DeclRefExpr &Read) const {
    auto Found = AtRead.find(&Read);
    return Found == AtRead.end() ? nullptr : &Found->second;
  }

private:
  llvm::DenseMap<const clang::DeclRefExpr *, llvm::SmallVector<const void *, 2>> AtRead;
};

} // namespace to_device_migrate
