// A host-built tensor captured by a lambda (a job stepping an environment in
// `std::async`) is not used on the device there: the capture is left as it
// is, and the tensor is moved where device code takes it. A move written into
// the capture list would not compile.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <future>
#include <vector>

int main() {
  torch::nn::Linear policy(2, 1);
  torch::Tensor observations = torch::zeros({4, 2});
  std::vector<std::future<void>> jobs;
  for (int64_t env = 0; env < 4; ++env)
    jobs.push_back(std::async(std::launch::async, [env, &observations] {
      // CHECK: [env, &observations] {
      observations[env][0] = static_cast<float>(env);
      observations[env][1] = 1.0f;
    }));
  for (auto &job : jobs)
    job.get();
  auto actions = policy(observations);
  // CHECK: auto actions = policy(observations.to(device));
  std::cout << actions.sum().item<float>() << "\n";
}
