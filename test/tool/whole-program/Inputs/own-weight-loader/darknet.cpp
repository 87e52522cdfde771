#include "darknet.h"

DarknetImpl::DarknetImpl() {
  layers = register_module("layers", torch::nn::Sequential(torch::nn::Linear(4, 3),
                                                           torch::nn::Linear(3, 2)));
}

torch::Tensor DarknetImpl::forward(torch::Tensor x) { return layers->forward(x); }

// Weights read from a file, given to each Linear's parameters through
// set_data; the submodules are reached by dynamic_cast over the list.
void DarknetImpl::load_weights(const std::vector<float> &buffer) {
  int64_t offset = 0;
  for (auto &child : layers->children()) {
    auto *linear = dynamic_cast<torch::nn::LinearImpl *>(child.get());
    if (!linear)
      continue;
    for (torch::Tensor *p : {&linear->weight, &linear->bias}) {
      const int64_t n = p->numel();
      torch::Tensor w = torch::from_blob(const_cast<float *>(buffer.data()) + offset, {n});
      p->set_data(w.view_as(*p).clone());
      offset += n;
    }
  }
}

std::string DarknetImpl::net_info() const { return "inputs " + std::to_string(inputs); }
