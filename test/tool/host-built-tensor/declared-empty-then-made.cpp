// A local declared empty and made later by its one assignment (`torch::Tensor
// z; ... z = torch::empty(...);`), then filled through a pointer its host code
// hands to a writer, is host-built like one made where it is declared: it
// stays on the CPU and is moved where the model uses it. (A simulation
// drawing its noise with its own host RNG.)
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=ERR --allow-empty %s < %t.err
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

void fillNormal(float *out, int64_t n, unsigned seed) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = static_cast<float>((seed * 2654435761u + i * 40503u) % 1000) / 1000.0f;
}

torch::Tensor simulate(torch::nn::Linear net, int64_t paths, int64_t steps) {
  auto options = torch::TensorOptions().dtype(torch::kFloat);
  torch::Tensor noise;
  {
    noise = torch::empty({paths, steps}, options);
    // CHECK: noise = torch::empty({paths, steps}, options);
    float *raw = noise.data_ptr<float>();
    for (int64_t p = 0; p < paths; ++p)
      fillNormal(raw + p * steps, steps, static_cast<unsigned>(p));
  }
  auto drift = net->weight.sum();
  return net(noise * 0.5 + drift);
  // CHECK: return net(noise.to(device) * 0.5 + drift);
}

int main() {
  torch::nn::Linear net(4, 2);
  std::cout << simulate(net, 3, 4).sum().item<float>() << "\n";
}
// ERR-NOT: host code writes
