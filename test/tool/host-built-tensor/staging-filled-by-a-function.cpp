// A staging tensor handed as a pointer to non-const to the program's own code
// (an environment writing its observation, `env.observe(obs.data_ptr<float>())`)
// or to a C function that writes (`fread`) is written by host code: it stays
// on the CPU and is moved where the model uses it (once, in front of a loop
// that only takes it there), never read through a copy.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=ERR --allow-empty %s < %t.err
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <cstdio>

struct Environment {
  int step = 0;
  void observe(float *out, int n) {
    for (int i = 0; i < n; ++i)
      out[i] = static_cast<float>(step + i);
    ++step;
  }
};

int main() {
  Environment env;
  torch::nn::Linear policy(4, 2);
  auto observation = torch::zeros({1, 4});
  // CHECK: auto observation = torch::zeros({1, 4});
  auto recorded = torch::zeros({4});
  // CHECK: auto recorded = torch::zeros({4});
  if (std::FILE *file = std::fopen("/dev/null", "rb")) {
    std::fread(recorded.data_ptr<float>(), sizeof(float), 4, file);
    std::fclose(file);
  }
  float total = 0;
  // What the loop only takes on the device is moved once, in front of it.
  // CHECK: auto recorded_device = recorded.to(device);
  // CHECK-NEXT: for (int step = 0; step < 3; ++step) {
  for (int step = 0; step < 3; ++step) {
    env.observe(observation.data_ptr<float>(), 4);
    // CHECK: env.observe(observation.data_ptr<float>(), 4);
    total += policy(observation + recorded).sum().item<float>();
    // CHECK: total += policy(observation.to(device) + recorded_device).sum().item<float>();
  }
  std::printf("%f\n", total);
  // CHECK-NOT: .cpu()
  // ERR-NOT: host code writes
  return 0;
}
