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

#include <functional>
#include <string>
#include <vector>

namespace to_device_migrate {

/// True for the classes a data loader calls per sample: subclasses of
/// torch::data::datasets::BatchDataset (Dataset, MapDataset, ...) and of
/// torch::data::transforms::BatchTransform (Transform, Lambda, ...).
bool isPerSampleClass(const clang::CXXRecordDecl *Class);

class ProgramSummary;
struct FunctionUse;

/// Every use of a function in `Decls` (the top-level declarations of the
/// files a parse migrates), with the code that uses it: what the program's
/// summary needs to find per-sample functions across files
/// (ProgramSummary::merge()).
std::vector<FunctionUse> collectFunctionUses(clang::ASTContext &Ctx,
                                             llvm::ArrayRef<clang::Decl *> Decls);

class PerSampleCode {
public:
  /// `Program` knows which functions only per-sample code calls, in any file
  /// of the run (a dataset in dataset.cpp calling a helper of rays.cpp).
  PerSampleCode(clang::ASTContext &Ctx, const ProgramSummary &Program,
                std::function<std::string(const clang::Decl *)> Usr)
      : Ctx(Ctx), Program(Program), Usr(std::move(Usr)) {}

  /// True if `Site` sits in per-sample code: inside a member (or a member
  /// initialiser, or a lambda in a member) of a per-sample class, or inside a
  /// function of the program called only from per-sample code.
  bool contains(const clang::DynTypedNode &Site) const;
  /// True if a call to `F` yields a value built by per-sample code (a method of
  /// a dataset, or a function only per-sample code calls).
  bool isPerSampleFunction(const clang::FunctionDecl *F) const;

  /// Where a node's code runs (PerSampleCode.cpp).
  struct EnclosingCode;

private:
  bool isPerSample(const EnclosingCode &Code) const;

  clang::ASTContext &Ctx;
  const ProgramSummary &Program;
  std::function<std::string(const clang::Decl *)> Usr;
};

} // namespace to_device_migrate
