// Per-sample code: what a data loader runs for each index (a dataset's get(),
// a transform's apply()) and what only that code calls.
//
// Authors of LibTorch programs build samples on the CPU and move one stacked
// batch per step. Placing a factory of get() on the device would turn every
// sample into its own small device allocation or host→device copy, so rules
// keep such code on the CPU and the batch is moved where the loop receives it.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTTypeTraits.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"

namespace to_device_migrate {

/// True for the classes a data loader calls per sample: subclasses of
/// torch::data::datasets::BatchDataset (Dataset, MapDataset, ...) and of
/// torch::data::transforms::BatchTransform (Transform, Lambda, ...).
bool isPerSampleClass(const clang::CXXRecordDecl *Class);

class PerSampleCode {
public:
  /// Collects, in one traversal of `Decls` (the top-level declarations of
  /// every file the parse migrates: a dataset in one header may call a helper
  /// of another), the functions defined in `Files` that are called only from
  /// per-sample code (to a fixed point: a helper of a helper of get()). The
  /// AST's traversal scope must be `Decls` while it is built; contains() then
  /// works in any scope that holds its site.
  PerSampleCode(clang::ASTContext &Ctx, llvm::ArrayRef<clang::Decl *> Decls,
                const llvm::DenseSet<clang::FileID> &Files);

  /// True if `Site` sits in per-sample code: inside a member (or a member
  /// initialiser, or a lambda in a member) of a per-sample class, or inside a
  /// function of those files called only from per-sample code.
  bool contains(const clang::DynTypedNode &Site) const;
  /// True if a call to `F` yields a value built by per-sample code (a method of
  /// a dataset, or a function only per-sample code calls).
  bool isPerSampleFunction(const clang::FunctionDecl *F) const;

  /// Where a node's code runs (PerSampleCode.cpp).
  struct EnclosingCode;

private:
  bool isPerSample(const EnclosingCode &Code) const;

  clang::ASTContext &Ctx;
  llvm::DenseSet<const clang::FunctionDecl *> OnlyCalledPerSample;
};

} // namespace to_device_migrate
