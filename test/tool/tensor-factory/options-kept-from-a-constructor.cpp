// Options made without a device in main and handed to a solver's constructor,
// which keeps them in a member and gives them to its factories, cannot be
// seen where they are used. A tensor the placement analysis finds meeting a
// module gets the device there all the same; one no module takes is left as
// written, with a note.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %migrate %t.cpp 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

struct Sampler {
  explicit Sampler(torch::TensorOptions options) : opts(options) {}
  torch::Tensor walk(torch::nn::Linear &net, int64_t n) {
    auto walkers = torch::randn({n, 4}, opts);
    // CHECK: auto walkers = torch::randn({n, 4}, opts.device(device));
    return net(walkers);
  }
  double norm(int64_t n) {
    return torch::ones({n}, opts).sum().item<double>();
    // CHECK: return torch::ones({n}, opts).sum().item<double>();
    // NOTE: options-kept-from-a-constructor.cpp:[[@LINE-2]]:29: note: tensor options come from elsewhere; not rewritten {{.*}} [tensor-factory]
  }
  torch::TensorOptions opts;
};

int main() {
  torch::nn::Linear net(4, 1);
  Sampler sampler(torch::TensorOptions().dtype(torch::kFloat));
  std::cout << sampler.walk(net, 3).sum().item<float>() + sampler.norm(3) << "\n";
}
