// A module loaded through a pointer to its holder (`torch::load(*model, path)`
// with `Net *model`) is moved after the load as `(*model)->to(device)`:
// `*model->to(device)` would call to() on the pointer and not compile.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp 2>/dev/null | diff %t.cpp -
#include <torch/torch.h>

#include <string>

struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", torch::nn::Linear(2, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

void load_model(Net *model, const std::string &path) {
  torch::load(*model, path);
  // CHECK: torch::load(*model, path);
  // CHECK-NEXT: (*model)->to(device);
}

int main(int argc, char **argv) {
  Net net;
  if (argc > 1)
    load_model(&net, argv[1]);
  std::cout << net->forward(torch::ones({1, 2})).sum().item<float>() << "\n";
}
