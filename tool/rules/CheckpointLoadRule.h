// checkpoint-load: `torch::load(t, path)` fills a tensor with CPU data, so the
// tensor is moved right after the load. (Models loaded with torch::load are
// moved by model-placement, after the load.) Optimizer state loaded from a
// checkpoint is on the CPU and LibTorch optimizers have no to(): for SGD, Adam,
// AdamW, Adagrad and RMSprop a loop after the load moves each state tensor in
// place (the state stays keyed by its parameter); other optimizers are reported.
//   torch::load(t, "t.pt");   ->   torch::load(t, "t.pt");
//                                  t = t.to(device);
//   torch::load(adam, "o.pt") ->   torch::load(adam, "o.pt");
//                                  for (auto &entry : adam.state()) { ...
//                                    auto &state = static_cast<torch::optim::AdamParamState &>(*entry.second);
//                                    for (torch::Tensor *t : {&state.exp_avg(), ...})
//                                      if (t->defined())
//                                        *t = t->to(device);
//                                  }
#pragma once

#include "engine/Rule.h"

namespace to_device_migrate {

class CheckpointLoadRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// Inserts the loop moving the state of a known optimizer type (once).
  void moveOptimizerState(const clang::CallExpr &Load, const clang::VarDecl &Optimizer,
                          const clang::CXXRecordDecl *Record, const clang::Stmt *Next);
};

} // namespace to_device_migrate
