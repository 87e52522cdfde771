// A LibTorch function that makes a tensor but takes no options (a
// transformer's causal mask, `generate_square_subsequent_mask(n)`, made on
// the CPU) cannot be given the device: what it makes is moved where it is
// made, called through the class or through a module. Before, nothing moved
// it, and the attention met a CPU mask. One given tensors (`at::normal(mean,
// std)`) is computed where they are, and is left alone.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <iostream>

struct EncoderImpl : torch::nn::Module {
  EncoderImpl() {
    layer = register_module(
        "layer", torch::nn::TransformerEncoderLayer(torch::nn::TransformerEncoderLayerOptions(8, 2)));
    masker = register_module("masker", torch::nn::Transformer(torch::nn::TransformerOptions(8, 2, 1, 1)));
  }
  torch::Tensor forward(torch::Tensor src) {
    torch::Tensor mask = torch::nn::TransformerImpl::generate_square_subsequent_mask(src.size(0));
    // CHECK: torch::Tensor mask = torch::nn::TransformerImpl::generate_square_subsequent_mask(src.size(0)).to(device);
    return layer(src, mask);
  }
  torch::nn::TransformerEncoderLayer layer{nullptr};
  torch::nn::Transformer masker{nullptr};
};
TORCH_MODULE(Encoder);

torch::Tensor sample(torch::Tensor mean, torch::Tensor std) { return at::normal(mean, std); }
// CHECK: torch::Tensor sample(torch::Tensor mean, torch::Tensor std) { return at::normal(mean, std); }

int main() {
  Encoder enc;
  auto x = torch::randn({5, 1, 8});
  auto mask = enc->masker->generate_square_subsequent_mask(5);
  // CHECK: auto mask = enc->masker->generate_square_subsequent_mask(5).to(device);
  std::cout << enc(x).sum().item<float>() + enc->layer(x, mask).sum().item<float>()
            << sample(enc(x), torch::ones({5, 1, 8})).sum().item<float>() << "\n";
  return 0;
}
