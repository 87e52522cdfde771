// AST matchers shared by several rules.
#pragma once

#include "facts/TorchTypes.h"

#include "clang/ASTMatchers/ASTMatchers.h"

namespace to_device_migrate {

/// Matches an expression whose type is a device (`torch::Device`, `torch::kCUDA`).
AST_MATCHER(clang::Expr, isDeviceExpr) {
  return isDeviceExpression(*ignoreConversions(&Node));
}

/// Matches a node whose expansion begins in `File`: the file a migration
/// context works on (MigrationContext::file()), the main file or a header
/// migrated from the parse of a file that includes it (--header-filter).
AST_POLYMORPHIC_MATCHER_P(isExpansionInFile,
                          AST_POLYMORPHIC_SUPPORTED_TYPES(clang::Decl, clang::Stmt, clang::TypeLoc),
                          clang::FileID, File) {
  const clang::SourceManager &SM = Finder->getASTContext().getSourceManager();
  clang::SourceLocation Loc = SM.getExpansionLoc(Node.getBeginLoc());
  return Loc.isValid() && SM.getFileID(Loc) == File;
}

/// Matches a method that hands host code a tensor's memory (isHostMemoryAccess()).
AST_MATCHER(clang::CXXMethodDecl, isHostMemoryAccessMethod) { return isHostMemoryAccess(&Node); }

/// Matches a variable holding a module (model or loss), see classifyModuleType().
AST_MATCHER(clang::VarDecl, holdsModule) {
  return classifyModuleType(Node.getType()).Handle != ModuleHandle::None;
}

} // namespace to_device_migrate
