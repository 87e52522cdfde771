// The model and the data of examples/header_model.cpp, in a header the project
// owns: `to-device-migrate --header-filter=examples/header_model/` migrates it
// with the file that includes it (its factories get the device; the model is
// moved where the program builds it).
#pragma once

#include <torch/torch.h>

#include <utility>

// Inputs and targets of y = 2 * sum(x) + 1, with a little noise.
inline std::pair<torch::Tensor, torch::Tensor> make_batch(int64_t rows) {
  torch::Tensor x = torch::rand({rows, 3});
  torch::Tensor noise = torch::randn({rows, 1}) * 0.01;
  return {x, x.sum(1, /*keepdim=*/true) * 2 + 1 + noise};
}

struct RegressorImpl : torch::nn::Module {
  explicit RegressorImpl(int64_t inputs)
      : fc(register_module("fc", torch::nn::Linear(inputs, 1))),
        scale(register_buffer("scale", torch::ones({1}))) {}

  torch::Tensor forward(const torch::Tensor &x) {
    // A tensor made at every call: it must be made on the input's device.
    return fc(x) * scale + torch::zeros({1});
  }

  torch::nn::Linear fc;
  torch::Tensor scale;
};
TORCH_MODULE(Regressor);
