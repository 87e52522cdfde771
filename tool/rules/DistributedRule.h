// distributed (only with --distributed): a single-process training program
// becomes a data-parallel one on c10d (todevice/distributed.h), run by torchrun
// or any launcher that sets RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT:
//   int main() {                     int main() {
//                                      todevice::distributed::init();
//   make_data_loader(ds, 64)    ->   make_data_loader<todevice::distributed::RandomSampler>(ds, 64)
//   make_data_loader<torch::data::samplers::SequentialSampler>(...)
//                               ->   make_data_loader<todevice::distributed::SequentialSampler>(...)
//   optimizer.step();           ->   todevice::distributed::average_gradients(optimizer);
//                                    optimizer.step();
//   torch::save(model, "m.pt"); ->   if (todevice::distributed::is_main()) torch::save(model, "m.pt");
// Models get their parameters from rank 0 where they are moved (model-placement
// adds todevice::distributed::broadcast_parameters). Without the launcher's
// variables the program runs as one process, as before. What cannot be
// rewritten safely (a sampler held in a variable, a custom sampler) is reported.
#pragma once

#include "engine/Rule.h"

namespace to_device_migrate {

class DistributedRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void initializeInMain(const clang::FunctionDecl &Main);
  void distributeLoader(const clang::CallExpr &Call, const clang::FunctionDecl &Factory);
  void averageBeforeStep(const clang::CXXMemberCallExpr &Step);
  void saveOnMainRank(const clang::CallExpr &Save);
};

} // namespace to_device_migrate
