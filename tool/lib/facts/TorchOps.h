// What each LibTorch operation does to the tensors it is given and to the one
// it gives back: the one table every placement question reads (HIPIFY's
// lesson: one table drives everything, so the rules cannot disagree about
// what `view` or `fill_` is). PlacementFlow turns these effects into demands
// (docs/rules.md, "Where a tensor is needed").
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace to_device_migrate {

/// What a LibTorch function or tensor method does.
enum class TensorEffect {
  NotLibTorch,   ///< not a LibTorch function or tensor method the table knows
  Create,        ///< a new tensor from no tensor (`torch::zeros`, `randn`): its options place it
  CreateFromValues, ///< a new tensor of the caller's values (`torch::tensor(v)`): its options place it
  CreateLike,    ///< a new tensor where an operand is (`zeros_like(x)`, `x.new_zeros(n)`)
  HostMemory,    ///< a tensor over host memory (`from_blob`): copied to be elsewhere
  View,          ///< shares its object's memory (`view`, `select`, `t[i]`, `detach`)
  Transfer,      ///< a copy elsewhere, or its object when it is there (`to`, `cpu`, `cuda`)
  WriteElements, ///< writes its object's elements with values of the caller's (`fill_`, `index_put_`, `copy_`)
  Accumulate,    ///< computes into its object where its operands are (`add_`, `mul_`, `clamp_`)
  HostAccess,    ///< hands host code the memory (`data_ptr`, `accessor`, `data<T>`)
  HostValue,     ///< a value for host code, from any device (`item`): it copies what it needs
  Query,         ///< metadata only (`sizes`, `dim`, `dtype`, `device`, `options`)
  Join,          ///< a new tensor from a list of tensors (`stack`, `cat`)
  Select,        ///< a new tensor of some of its object's elements, chosen by index
                 ///< operands (`index_select`, `gather`): where its object is, with its
                 ///< indices, and smaller than it: what crosses devices, when one must
  Compute,       ///< everything else: computed where its operands are
};

/// The effect of a LibTorch function, or of a tensor method (LibTorch's
/// Tensor, TensorBase or TensorOptions); NotLibTorch for anything else.
TensorEffect effectOf(const clang::FunctionDecl *Callee);

/// The effect of a call as written: `t[i]` is a view, `t[i] = v` writes
/// elements, `torch::normal(mean, std)` of tensors computes.
TensorEffect effectOf(const clang::CallExpr &Call);

/// True for the factories whose options place them: Create and
/// CreateFromValues.
bool isPlacedByOptions(TensorEffect Effect);
/// True for what copies the caller's host data into a tensor: HostMemory
/// (`from_blob`) and CreateFromValues (`torch::tensor(values)`).
bool copiesHostData(TensorEffect Effect);

/// True for the LibTorch function `Callee` whose effect is `Effect`.
inline bool hasEffect(const clang::FunctionDecl *Callee, TensorEffect Effect) {
  return effectOf(Callee) == Effect;
}

/// The names of the functions whose effect is one of `Effects`, qualified as
/// torch:: and at:: ("::torch::zeros", "::at::zeros"): for matchers (`hasAnyName`).
std::vector<std::string> functionsWithEffect(std::initializer_list<TensorEffect> Effects);

/// True for an element write that copies a tensor, which LibTorch takes from
/// any device: `t.copy_(x)`, and `t[i] = x` (an rvalue's assignment from a
/// tensor is a copy_; from a number it is a fill_).
bool copiesFromAnyDevice(const clang::CallExpr &Call);

/// True for `t.to(device)`, `.cpu()`, `.cuda()`: a transfer that may change
/// the device (not `t.to(torch::kFloat)`, which only converts).
bool isDeviceTransfer(const clang::CXXMemberCallExpr &Call);

/// The arguments, First to End (not included), that a function of the C or
/// C++ standard library writes through: memcpy's destination, the range
/// std::sort sorts, std::copy's destination.
struct WrittenArguments {
  unsigned First = 0, End = 0;
};
/// Those of `Callee`, if it is such a function.
std::optional<WrittenArguments> hostWrittenArguments(const clang::FunctionDecl &Callee);

} // namespace to_device_migrate
