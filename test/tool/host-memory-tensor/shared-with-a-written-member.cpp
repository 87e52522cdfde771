// A tensor over a member's buffer, not cloned, shares the member's memory:
// on the CPU it follows what the class writes there later, and the device
// copy made where it is made does not. It is still moved (the program's
// device needs it), with a warning at the line; a buffer only the
// constructor fills, and a view cloned where it is made, get no warning. A
// derived class writing its base's buffer is a writer too.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: grep -c "warning: 'from_blob' views" %t.err | FileCheck --check-prefix=ONCE %s
// RUN: %migrate %t.cpp 2>/dev/null | diff %t.cpp -
#include <torch/torch.h>

#include <vector>

class Board {
public:
  Board() : cells_(9, 0.0f), weights_(9, 1.0f) {}
  torch::Tensor state() { return torch::from_blob(cells_.data(), {9}); }
  // CHECK: torch::Tensor state() { return torch::from_blob(cells_.data(), {9}).to(device); }
  // WARN: shared-with-a-written-member.cpp:[[@LINE-2]]:{{[0-9]+}}: warning: 'from_blob' views the memory of 'cells_', a member its class writes elsewhere
  torch::Tensor snapshot() { return torch::from_blob(cells_.data(), {9}).clone(); }
  // CHECK: torch::Tensor snapshot() { return torch::from_blob(cells_.data(), {9}).to(device).clone(); }
  torch::Tensor weights() { return torch::from_blob(weights_.data(), {9}); }
  // CHECK: torch::Tensor weights() { return torch::from_blob(weights_.data(), {9}).to(device); }
  void play(int cell) { cells_[cell] = 1.0f; }

private:
  std::vector<float> cells_;
  std::vector<float> weights_;
};

// The buffer of a base class, viewed and written by a derived one.
struct Environment {
  std::vector<float> observation_ = std::vector<float>(4, 0.0f);
};
struct Corridor : Environment {
  torch::Tensor reset() { return torch::from_blob(observation_.data(), {4}); }
  // CHECK: torch::Tensor reset() { return torch::from_blob(observation_.data(), {4}).to(device); }
  // WARN: shared-with-a-written-member.cpp:[[@LINE-2]]:{{[0-9]+}}: warning: 'from_blob' views the memory of 'observation_'
  void step(int cell) { observation_[cell] = 1.0f; }
};
// ONCE: {{^}}2{{$}}

int main() {
  torch::nn::Linear net(9, 1);
  Board board;
  board.play(4);
  auto value = net->forward(board.state() * board.weights());
  board.play(2);
  Corridor corridor;
  auto start = corridor.reset();
  corridor.step(1);
  std::cout << value.item<float>() + board.snapshot().sum().item<float>() + start.sum().item<float>() << "\n";
}
