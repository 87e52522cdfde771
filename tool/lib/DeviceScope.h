// Finding a device variable the code already has, and a fresh name for one it
// does not.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTTypeTraits.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace todevice {

/// The closest `torch::Device` variable visible at `Site` and declared before
/// it: a local of an enclosing block, a parameter of the enclosing function (or
/// of a capturing lambda's function), or a namespace-scope variable of the main
/// file. Null if there is none.
const clang::VarDecl *findDeviceVariable(clang::ASTContext &Ctx, const clang::DynTypedNode &Site,
                                         clang::SourceLocation SiteLoc);

/// `Preferred` if no declaration, macro or using-directive of the main file
/// could collide with a new variable of that name, else the first free one of
/// `Fallback`, `Fallback_1`, `Fallback_2`, ...
/// Names in `Taken` (already introduced by the tool) are avoided too.
std::string chooseFreshName(clang::ASTContext &Ctx, llvm::StringRef Preferred,
                            llvm::StringRef Fallback, const llvm::StringSet<> &Taken = {});

} // namespace todevice
