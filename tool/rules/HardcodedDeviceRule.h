// hardcoded-device: a hard-coded CUDA device crashes on machines without a GPU;
// it becomes the portable device.
//   x.cuda()                       ->  x.to(device)
//   x.to(torch::kCUDA)             ->  x.to(device)
//   torch::device(torch::kCUDA)    ->  torch::device(device)
//   torch::Device dev(torch::kCUDA) -> torch::Device dev(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU)
// Code that already chooses (`is_available() ? kCUDA : kCPU`) is left alone;
// explicit `torch::kCPU` placements are kept and reported as a note.
#pragma once

#include "engine/Rule.h"

namespace to_device_migrate {

class HardcodedDeviceRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void rewriteDeviceType(const clang::DeclRefExpr &Ref);
};

} // namespace to_device_migrate
