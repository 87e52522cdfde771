// Programs by others, #23 class 4: reinforcement learning with an environment
// written in C++ that fills its observation tensor from host code (memcpy into
// data_ptr(), accessor writes). Those tensors stay on the CPU where the
// environment builds them and move where the agent receives them; the agent's
// network (made with new, held by a raw pointer) moves right after it exists.
#include <torch/torch.h>

#include <cstdio>
#include <cstring>
#include <vector>

// A walk on a line of cells: reach the right end.
class LineWorld {
public:
  explicit LineWorld(int cells) : cells(cells) {}

  torch::Tensor reset() {
    position = 0;
    return observe();
  }

  // Moves left (0) or right (1); the reward is the new position's value.
  std::tuple<torch::Tensor, torch::Tensor, bool> step(int64_t action) {
    position = std::max(0, std::min(cells - 1, position + (action == 1 ? 1 : -1)));
    const bool done = position == cells - 1;
    torch::Tensor reward = torch::full({1}, done ? 1.0 : -0.1);
    return {observe(), reward, done};
  }

private:
  torch::Tensor observe() {
    torch::Tensor observation = torch::zeros({1, cells});
    auto cell = observation.accessor<float, 2>();
    cell[0][position] = 1.0f;
    std::vector<float> distance = {static_cast<float>(cells - 1 - position)};
    std::memcpy(observation.data_ptr<float>() + cells - 1, distance.data(), sizeof(float));
    return observation;
  }

  int cells;
  int position = 0;
};

struct PolicyImpl : torch::nn::Module {
  explicit PolicyImpl(int64_t cells)
      : hidden(register_module("hidden", torch::nn::Linear(cells, 16))),
        out(register_module("out", torch::nn::Linear(16, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return torch::log_softmax(out(torch::relu(hidden(x))), 1); }
  torch::nn::Linear hidden, out;
};
TORCH_MODULE(Policy);

class Agent {
public:
  explicit Agent(int64_t cells) {
    policy = new Policy(cells);
    optimizer = new torch::optim::Adam((*policy)->parameters(), torch::optim::AdamOptions(1e-2));
  }
  ~Agent() {
    delete optimizer;
    delete policy;
  }

  // One episode of REINFORCE; returns its total reward.
  double episode(LineWorld &world, int max_steps) {
    std::vector<torch::Tensor> log_probs, rewards;
    torch::Tensor observation = world.reset();
    for (int t = 0; t < max_steps; ++t) {
      torch::Tensor scores = (*policy)->forward(observation);
      int64_t action = torch::multinomial(scores.exp(), 1).item<int64_t>();
      log_probs.push_back(scores.select(1, action));
      auto [next, reward, done] = world.step(action);
      rewards.push_back(reward);
      observation = next;
      if (done)
        break;
    }
    torch::Tensor returns = torch::cat(rewards).flip(0).cumsum(0).flip(0);
    torch::Tensor loss = -(torch::cat(log_probs) * returns).sum();
    optimizer->zero_grad();
    loss.backward();
    optimizer->step();
    return torch::cat(rewards).sum().item<double>();
  }

private:
  Policy *policy = nullptr;
  torch::optim::Adam *optimizer = nullptr;
};

int main() {
  torch::manual_seed(11);
  LineWorld world(6);
  Agent agent(6);
  for (int episode = 0; episode < 8; ++episode)
    std::printf("episode %d reward %.4f\n", episode, agent.episode(world, 20));
}
