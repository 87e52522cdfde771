// AST matchers shared by several rules.
#pragma once

#include "TorchTypes.h"

#include "clang/ASTMatchers/ASTMatchers.h"

namespace to_device_migrate {

/// Matches an expression whose type is a device (`torch::Device`, `torch::kCUDA`).
AST_MATCHER(clang::Expr, isDeviceExpr) {
  return isDeviceExpression(*ignoreConversions(&Node));
}

/// Matches a variable holding a module (model or loss), see classifyModuleType().
AST_MATCHER(clang::VarDecl, holdsModule) {
  return classifyModuleType(Node.getType()).Handle != ModuleHandle::None;
}

} // namespace to_device_migrate
