// A model whose own member function loads a checkpoint into it
// (`this->load(archive)`) is moved after that call, not before it: loading
// puts CPU tensors into its parameters.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct CubeNetImpl : torch::nn::Module {
  CubeNetImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  void loadModel(const std::string &path) {
    torch::serialize::InputArchive archive;
    archive.load_from(path);
    this->load(archive);
  }
  torch::nn::Linear fc;
};

int main(int argc, char **argv) {
  CubeNetImpl model;
  model.loadModel(argv[1]);
  // CHECK:      CubeNetImpl model;
  // CHECK-NEXT: model.loadModel(argv[1]);
  // CHECK-NEXT: model.to(device);
  return model.forward(torch::ones({1, 4})).numel() == 2 ? 0 : 1;
}
