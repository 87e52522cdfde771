#include "agent.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

int main() {
  std::srand(0);
  torch::manual_seed(0);
  Agent agent;
  std::vector<float> observation = {0.1f, 0.2f, 0.3f, 0.4f};
  int64_t total = 0;
  for (int step = 0; step < 8; ++step) {
    observation[step % 4] += 0.5f;
    auto state = torch::from_blob(observation.data(), {4}, torch::kFloat).clone();
    total += agent.act(state, 0.5);
  }
  auto mean = torch::from_blob(observation.data(), {4}, torch::kFloat).clone() * 2;
  std::printf("%lld %.4f\n", static_cast<long long>(total), agent.value(mean).item<float>());
  return 0;
}
