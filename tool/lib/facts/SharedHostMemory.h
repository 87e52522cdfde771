// A tensor over host memory that the program goes on writing: `from_blob`
// of a member's buffer, not cloned, shares that memory. On the CPU the
// tensor sees every later write to the member; a copy to the device made
// where the tensor is made does not. The tool cannot keep that sharing on a
// device, so it says so at the line.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace to_device_migrate {

/// The member whose memory `FromBlob` (a `torch::from_blob` call) views when
/// the tensor is not cloned where it is made and a function other than a
/// constructor, of the member's class or of the class whose function makes
/// the tensor (a derived class writing its base's buffer), writes the member
/// (ExprMutationAnalyzer; a `.data()` handed to `from_blob` is not a write).
/// Null otherwise.
const clang::FieldDecl *sharedWrittenMember(clang::ASTContext &Ast, const clang::CallExpr &FromBlob);

} // namespace to_device_migrate
