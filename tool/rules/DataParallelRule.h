// data-parallel (only with --data-parallel): a forward call in a training loop
// runs on every CUDA device when there are several, and as written otherwise:
//   model->forward(x)   ->   data_parallel_forward(model, x)
// with one helper inserted before the first function that uses it:
//   #if __has_include(<c10/cuda/impl/cuda_cmake_macros.h>) // LibTorch built with CUDA
//   #include <torch/nn/parallel/data_parallel.h>
//   #endif
//   template <typename Module>
//   torch::Tensor data_parallel_forward(Module &module, const torch::Tensor &input) {
//   #if __has_include(<c10/cuda/impl/cuda_cmake_macros.h>) // LibTorch built with CUDA
//     if (torch::cuda::device_count() > 1)
//       return torch::nn::parallel::data_parallel(module, input);
//   #endif
//     return module->forward(input);
//   }
// data_parallel's header needs a CUDA build of LibTorch (and its symbols live in
// libtorch_cuda), so a CPU-only LibTorch compiles the plain call only.
// data_parallel replicates the module with clone(), which only modules derived
// from torch::nn::Cloneable<T> implement: other modules get a note saying what
// to change instead of a rewrite that would throw on a multi-GPU machine.
#pragma once

#include "engine/Rule.h"

namespace to_device_migrate {

class DataParallelRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfFile() override;

private:
  /// Inserts the helper unless the file already has it (from an earlier run).
  void insertHelper();
  /// The helper's name, chosen at the first rewrite.
  std::string Helper;
  /// Offset of the start of the first top-level declaration using the helper.
  unsigned HelperOffset = ~0u;
};

} // namespace to_device_migrate
