// host-memory-tensor: a tensor built over host memory must be copied to the
// device; giving from_blob a device would claim the pointer is device memory.
//   torch::from_blob(data, {2, 3})  ->  torch::from_blob(data, {2, 3}).to(device)
// Rows copied from host data one by one into a vector and joined stay on the
// CPU, and the joined batch is moved: one copy, not one per row.
//   rows.push_back(torch::tensor(row));  torch::stack(rows)  ->  torch::stack(rows).to(device)
// An image handed to per-sample code (a transform) stays on the host until
// then; received-tensor moves what the transform returns.
// Written as a Clang Transformer rule: it needs no context beyond the match.
#pragma once

#include "engine/Rule.h"

#include "clang/AST/Expr.h"
#include "clang/Tooling/Transformer/Transformer.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace to_device_migrate {

class HostMemoryTensorRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;

private:
  /// Why `Call`'s tensor stays on the host (moved already, per-sample code,
  /// ...), or null when it is copied to the device.
  const char *hostReason(const clang::CallExpr &Call);
  /// Notes where the placement analysis puts `Call` beside the rule's
  /// decision and its reason (--explain-placement).
  void explain(const clang::CallExpr &Call, const char *HostReason);

  std::optional<clang::tooling::Transformer> Rewriter;
  /// Tensors over a member's memory the class writes, warned about (SharedHostMemory.h).
  llvm::DenseSet<const clang::CallExpr *> WarnedShared;
};

} // namespace to_device_migrate
