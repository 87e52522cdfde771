// Whether a statement runs again, from the CFG of its function rather than
// from the loop statements written around it: "move once, outside any loop
// that does not change it" asks whether the code that takes a tensor can run
// twice while the tensor stays the same one.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace to_device_migrate {

/// The function whose body holds `S` (a lambda's call operator for code in
/// a lambda's body), climbing from `S`'s parents; null for code outside any
/// function (a member's initialiser).
const clang::FunctionDecl *functionOf(clang::ASTContext &Ast, const clang::Stmt &S);

/// The loop statement directly around `S` in its function (for, while, do,
/// range for); null past a lambda or the function's body. For placing text
/// in front of a loop, where the CFG has no statements.
const clang::Stmt *enclosingLoop(clang::ASTContext &Ast, const clang::Stmt &S);

/// True if `Use` can run again in one call of its function without `Var`
/// being declared anew in between: it lies on a cycle of the function's CFG
/// (a loop's body, condition or increment; not a loop's initialisation) that
/// does not pass `Var`'s declaration (a loop inside which `Var` is declared
/// makes a new one each turn). A parameter, a member or a null `Var` is
/// declared by no statement of the function: any cycle counts. Code in a
/// lambda also runs again where the lambda is made in a loop (a job queued
/// per element), unless `Var` is declared in the lambda.
bool runsAgainWithSame(clang::ASTContext &Ast, const clang::Stmt &Use, const clang::VarDecl *Var);

} // namespace to_device_migrate
