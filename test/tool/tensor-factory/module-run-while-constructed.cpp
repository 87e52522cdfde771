// A module's constructor runs a dummy input through the layers it has just
// made, to size the next one: nothing can have moved the module yet, so its
// parameters are on the host, and the dummy input must be there too (on the
// device it would meet host weights). The same kind of method called from
// `forward` as well runs on the device's side: its factory gets the device,
// and so does a buffer the constructor registers (it moves with the module).
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct ConvNetImpl : torch::nn::Module {
  ConvNetImpl(int64_t channels, int64_t height, int64_t width)
      : conv1(torch::nn::Conv2dOptions(channels, 4, 3)), n(convOutput(channels, height, width)),
        fc(n, 2) {
    register_module("conv1", conv1);
    register_module("fc", fc);
    scale = register_buffer("scale", torch::ones({2}));
    // CHECK: scale = register_buffer("scale", torch::ones({2}, torch::device(device)));
  }
  int64_t convOutput(int64_t channels, int64_t height, int64_t width) {
    torch::Tensor x = torch::zeros({1, channels, height, width});
    // CHECK: torch::Tensor x = torch::zeros({1, channels, height, width});
    return conv1(x).numel();
  }
  torch::Tensor forward(torch::Tensor x) {
    return fc(conv1(x).view({x.size(0), n}) + bias(x.size(0))) * scale;
  }
  torch::Tensor bias(int64_t rows) {
    // CHECK: return torch::ones({rows, 1}, torch::device(device));
    return torch::ones({rows, 1});
  }
  torch::nn::Conv2d conv1;
  int64_t n;
  torch::nn::Linear fc;
  torch::Tensor scale;
};
TORCH_MODULE(ConvNet);

int main() {
  ConvNet net(1, 8, 8);
  auto y = net(torch::randn({2, 1, 8, 8}));
  std::cout << y.sum().item<float>() << "\n";
  return 0;
}
