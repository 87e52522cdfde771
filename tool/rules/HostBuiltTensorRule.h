// host-built-tensor: a tensor its function builds and then fills from host
// code (an RL environment's observation written through data_ptr, a staging
// tensor filled every step, indices written one by one from a vocabulary)
// stays on the CPU, where the host can write it; where device code uses it, it
// is moved, one copy per use, after the writes (once, in front of a loop that
// only takes it on the device: `rewards[t]` at every step of a return's
// computation):
//   auto idx = torch::zeros({n}, torch::kLong);      auto idx = torch::zeros({n}, torch::kLong);
//   for (...) idx[i] = vocab[w];                ->   for (...) idx[i] = vocab[w];
//   auto out = model(idx);                           auto out = model(idx.to(device));
// Its factory gets no device (tensor-factory), its host reads no .cpu()
// (host-access), and nothing ever writes through a copy. What the function
// returns is moved where it is received (received-tensor). A member of the
// program's classes is one too when some function fills it from the host and
// every value it is given is a factory's (a trainer's staging inputs filled
// in fill(), read by forward() in another file), and so is a parameter that
// every caller hands host data (a state copied from the environment's
// vector, used by the network only when the agent does not explore): the
// whole program decides.
#pragma once

#include "engine/Rule.h"

namespace to_device_migrate {

class HostBuiltTensorRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// `Use` (a host-built tensor, or a view of it) gets `.to(device)` if device code needs it there.
  void moveWhereDeviceUses(const clang::Expr &Use);
  /// Device code takes `Use` as it is: it needs a move there.
  bool needsMoveAt(const clang::Expr &Use) const;
  /// The outermost loop around `Ref` (one of `Refs`, every reference to the
  /// local `Tensor`) inside `Tensor`'s scope in which every reference is a
  /// view device code takes: nothing there writes it, reads it on the host,
  /// or moves it. Null if `Ref` itself is not such a view, or no loop is.
  const clang::Stmt *loopTakingOnlyOnDevice(const clang::VarDecl &Tensor,
                                            llvm::ArrayRef<const clang::DeclRefExpr *> Refs,
                                            const clang::DeclRefExpr &Ref) const;
  /// One move of `Tensor` in front of `Loop`, which the references `Refs`
  /// in it read instead: `auto rewards_device = rewards.to(device);`.
  void moveBeforeLoop(const clang::VarDecl &Tensor, const clang::Stmt &Loop,
                      llvm::ArrayRef<const clang::DeclRefExpr *> Refs);
};

} // namespace to_device_migrate
