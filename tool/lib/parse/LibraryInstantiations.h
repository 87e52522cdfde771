//===- LibraryInstantiations.h - leave the libraries' template bodies alone ===//
//
// Most of a parse of a small program against the precompiled <torch/torch.h>
// is spent at the end of the translation unit, instantiating the bodies of
// LibTorch's and the standard library's templates that the program's code
// uses (`ModuleHolder<NetImpl>`, `std::shared_ptr<NetImpl>`, `register_module`
// and everything they reach): 77% of the instructions of a run on
// examples/train.cpp. No rule reads those bodies: what a LibTorch function
// does comes from the operations table (facts/TorchOps), and edits only go
// into the program's own files. So the migration's parses (both passes)
// drop them; the program's own templates, in its own files, are still
// instantiated. The compile check (output/RewriteCheck) drops them too, but
// for those the migration's own edits ask for (their point of instantiation
// lies in text an edit wrote): the rest of the program compiled as it was,
// and every library body an edit reaches is instantiated as a compiler would.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>

namespace clang {
class Sema;
}

namespace to_device_migrate {

/// Removes from a parse's pending implicit instantiations those of templates
/// declared in system headers (LibTorch, the standard library: included with
/// -isystem), but those `Keep` asks for by their point of instantiation.
class LibraryInstantiations {
public:
  explicit LibraryInstantiations(
      std::function<bool(clang::SourceLocation PointOfInstantiation)> Keep = nullptr)
      : Keep(std::move(Keep)) {}
  /// Called after each top-level declaration, before the end of the
  /// translation unit would instantiate them.
  void drop(clang::Sema &S);

private:
  std::function<bool(clang::SourceLocation)> Keep;
  /// Every instantiation dropped so far: a use may mark one "used but not
  /// defined" after its declaration was handled.
  llvm::DenseSet<const clang::Decl *> Dropped;
};

} // namespace to_device_migrate
