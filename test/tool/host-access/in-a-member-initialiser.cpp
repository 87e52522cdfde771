// A host read in a constructor's member initialiser (`values_(t.data_ptr<float>(),
// t.data_ptr<float>() + t.numel())`) has no statement in front of it to hold
// the one host copy both pointers must come from (two `.cpu()` copies would
// make a range over two arrays): it is reported at its line, not passed over
// in silence, and left as written.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp 2>/dev/null | diff %t.cpp -
#include <torch/torch.h>

#include <vector>

class Samples {
public:
  explicit Samples(torch::Tensor states)
      : states_(std::move(states)), values_(states_.data_ptr<float>(), states_.data_ptr<float>() + states_.numel()) {}
  // CHECK: : states_(std::move(states)), values_(states_.data_ptr<float>(), states_.data_ptr<float>() + states_.numel()) {}
  // WARN: in-a-member-initialiser.cpp:[[@LINE-2]]:45: warning: host code reaches the memory of 'states_' through data_ptr() where no statement can hold a host copy
  size_t size() const { return values_.size(); }

private:
  torch::Tensor states_;
  std::vector<double> values_;
};

int main() {
  torch::nn::Linear scale(2, 2);
  auto states = scale(torch::ones({3, 2})).detach();
  Samples samples(states);
  std::cout << samples.size() << "\n";
  return 0;
}
