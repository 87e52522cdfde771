// received-tensor: a tensor that comes from code the tool cannot see or does
// not place (a function of another file, a dataset's method, which stays on
// the CPU) is moved once where the program receives it:
//   auto ids = corpus.get_data(batch_size);  ->  auto ids = corpus.get_data(batch_size).to(device);
// Moving a tensor that is already on the device returns it without a copy, so
// this costs nothing when the function did place it. Only sources are moved:
// calls given no tensor or module (what such a call returns derives from its
// arguments, which are placed already). A note says what was assumed.
// (The other way, into per-sample code, is PerSampleCallRule's.)
#pragma once

#include "engine/Rule.h"

namespace to_device_migrate {

class ReceivedTensorRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// `Value` (a tensor built on the host elsewhere) gets `.to(device)` and a note saying `What`.
  void moveHostTensor(const clang::Expr &Value, const std::string &What);
  /// The tensors of `Call` (a pair or tuple built on the host elsewhere) are
  /// moved where a structured binding receives them, with a note saying
  /// `What`; a warning where none does.
  void moveHostBatch(const clang::CallExpr &Call, const std::string &What);
  /// True if `Binding` is moved to the device somewhere in its function.
  bool isRebound(const clang::BindingDecl &Binding);
};

} // namespace to_device_migrate
