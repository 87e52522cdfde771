// Members of a module that its constructor does not register with
// register_module() are not moved by Module::to() of the module: they are
// moved where they are built, with a note naming them. Registered members are
// left to their parent.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %migrate %t.cpp 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

struct EncoderImpl : torch::nn::Module {
  EncoderImpl() : fc(register_module("fc", torch::nn::Linear(2, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Encoder);

struct GraphNetImpl : torch::nn::Module {
  GraphNetImpl(int64_t depth) : projection(torch::nn::Linear(2, 2)) {
    encoder = std::make_unique<EncoderImpl>();
    for (int64_t i = 0; i < depth; ++i)
      layers.push_back(torch::nn::AnyModule(torch::nn::Linear(2, 2)));
    for (int64_t i = 0; i < depth; ++i)
      registered.push_back(register_module("layer" + std::to_string(i), torch::nn::Linear(2, 2)));
  }
  // NOTE-DAG: unregistered-members.cpp:[[@LINE-6]]:5: note: module member 'encoder' of 'GraphNetImpl' is not registered with register_module()
  // NOTE-DAG: unregistered-members.cpp:[[@LINE-5]]:7: note: module member 'layers' of 'GraphNetImpl' is not registered with register_module()
  // NOTE-DAG: unregistered-members.cpp:[[@LINE+17]]:21: note: module member 'projection' of 'GraphNetImpl' is not registered with register_module()
  // CHECK:      GraphNetImpl(int64_t depth) : projection(torch::nn::Linear(2, 2)) {
  // CHECK-NEXT: projection->to(device);
  // CHECK-NEXT: encoder = std::make_unique<EncoderImpl>();
  // CHECK-NEXT: encoder->to(device);
  // CHECK-NEXT: for (int64_t i = 0; i < depth; ++i)
  // CHECK-NEXT: layers.push_back(torch::nn::AnyModule(torch::nn::Linear(2, 2)));
  // CHECK-NEXT: for (auto &module : layers) {
  // CHECK-NEXT:   module.ptr()->to(device);
  // CHECK-NEXT: }
  // CHECK-NOT:  : registered)
  torch::Tensor forward(torch::Tensor x) {
    x = encoder->forward(projection(x));
    for (auto &layer : layers)
      x = layer.forward(x);
    return x;
  }
  torch::nn::Linear projection;
  std::unique_ptr<EncoderImpl> encoder;
  std::vector<torch::nn::AnyModule> layers;
  std::vector<torch::nn::Linear> registered;
};
TORCH_MODULE(GraphNet);

int main() {
  GraphNet net(2);
  return net(torch::ones({1, 2})).numel() == 2 ? 0 : 1;
}
