// Negative: a sampler held in a variable, or one the tool does not know, is
// reported and left as written; a distributed sampler is left alone.
// RUN: %migrate --distributed %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
#include <torch/torch.h>

struct Ones : torch::data::datasets::Dataset<Ones> {
  torch::data::Example<> get(size_t) override { return {torch::ones({1}), torch::ones({1})}; }
  torch::optional<size_t> size() const override { return 8; }
};

int main() {
  torch::data::samplers::SequentialSampler sampler(8);
  auto a = torch::data::make_data_loader(Ones(), std::move(sampler), 2);
  // CHECK: auto a = torch::data::make_data_loader(Ones(), std::move(sampler), 2);
  // WARN: sampler-reported.cpp:[[@LINE-2]]:50: warning: this loader's sampler is not one the tool can make distributed {{.*}} [distributed]
  auto b = torch::data::make_data_loader(Ones(), torch::data::samplers::DistributedRandomSampler(8, 2, 0), 2);
  // CHECK: auto b = torch::data::make_data_loader(Ones(), torch::data::samplers::DistributedRandomSampler(8, 2, 0), 2);
  return a && b ? 0 : 1;
}
