// A tensor reached as an element of a named container (`results.at(0)`,
// `outs[1]`, `std::get<0>(pair)`) names one tensor within its statement, as a
// variable does: its host reads share one host copy made before the statement
// (a policy head read into a std::vector through two pointers reads one
// buffer, not two copies). An index that changes something, and a write,
// are reported instead, never rewritten.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <iostream>
#include <tuple>
#include <vector>

int main() {
  torch::nn::Linear net(4, 2);
  torch::Tensor x = torch::randn({3, 4});
  std::vector<torch::Tensor> results = {net(x), net(x).sum(1)};
  std::vector<float> probs(results.at(0).data_ptr<float>(),
                           results.at(0).data_ptr<float>() + results.at(0).numel());
  // CHECK: auto results_host = results.at(0).cpu();
  // CHECK-NEXT: std::vector<float> probs(results_host.data_ptr<float>(),
  // CHECK-NEXT: results_host.data_ptr<float>() + results.at(0).numel());
  float value = *results[1].data_ptr<float>();
  // CHECK: auto results_on_host = results[1].cpu();
  // CHECK-NEXT: float value = *results_on_host.data_ptr<float>();
  std::tuple<torch::Tensor, torch::Tensor> pair{net(x), net(x)};
  auto first = std::get<0>(pair).accessor<float, 2>();
  // CHECK: auto pair_host = std::get<0>(pair).cpu();
  // CHECK-NEXT: auto first = pair_host.accessor<float, 2>();
  size_t i = 0;
  float next = *results[i++].data_ptr<float>();
  // WARN: reads-elements-of-named-containers.cpp:[[@LINE-1]]:17: warning: host code reaches the memory of a tensor computed here through data_ptr(){{.*}}[host-access]
  *results.at(1).data_ptr<float>() = 0.f;
  // WARN: reads-elements-of-named-containers.cpp:[[@LINE-1]]:4: warning: host code writes into 'results' through data_ptr(){{.*}}[host-access]
  // CHECK: *results.at(1).data_ptr<float>() = 0.f;
  std::cout << probs[0] + value + first[0][0] + next << "\n";
}
