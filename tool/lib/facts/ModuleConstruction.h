//===- ModuleConstruction.h - code that runs while a module is made -------===//
//
// A module's constructor often runs a dummy input through the layers it has
// just made, to size the next one (`GetConvOutput(c, h, w)` in the member
// initialisers: `torch::zeros({1, c, h, w})` through `conv1`, `conv2`).
// Nothing can have moved the module yet: its parameters are on the host, and
// so must be what meets them there. The placement analysis asks this set
// before it takes a module call for the device.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"

namespace to_device_migrate {

/// The functions of `Functions` that run only while a module is constructed:
/// the constructors of module classes, and the methods of module classes
/// that only such functions call (Clang's CallGraph over `Functions`; a
/// method nothing in them calls is not in the set). Canonical declarations.
llvm::DenseSet<const clang::FunctionDecl *>
runDuringModuleConstruction(llvm::ArrayRef<const clang::FunctionDecl *> Functions);

} // namespace to_device_migrate
