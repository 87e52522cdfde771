// tensor-factory: create tensors on the device instead of copying them there.
//   torch::randn({10, 10})             -> torch::randn({10, 10}, torch::device(device))
//   torch::zeros({3}, torch::kFloat)   -> torch::zeros({3}, torch::TensorOptions(torch::kFloat).device(device))
//   torch::ones({2}, torch::dtype(k))  -> torch::ones({2}, torch::dtype(k).device(device))
// Calls whose options already name a device (or whose options cannot be seen,
// such as a function parameter) are left alone.
#pragma once

#include "../lib/Rule.h"

namespace todevice {

class TensorFactoryRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

  /// The factory functions, without namespace (each exists as torch:: and at::).
  static llvm::ArrayRef<llvm::StringRef> factoryNames();
};

} // namespace todevice
