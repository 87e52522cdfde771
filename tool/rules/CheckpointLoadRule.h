// checkpoint-load: `torch::load(t, path)` fills a tensor with CPU data, so the
// tensor is moved right after the load. (Models loaded with torch::load are
// moved by model-placement, after the load.) Optimizer state loaded from a
// checkpoint stays on the CPU: that is reported, since LibTorch optimizers
// have no to(); todevice::Registry moves it.
//   torch::load(t, "t.pt");   ->   torch::load(t, "t.pt");
//                                  t = t.to(device);
#pragma once

#include "../lib/Rule.h"

namespace todevice {

class CheckpointLoadRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace todevice
