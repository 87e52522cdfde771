// average_gradients on a small ResNet-like stack (100 parameter tensors,
// 1.0 MB of gradients) against one allreduce per parameter and against one
// allreduce of a single flat buffer of the same bytes (the limit). Run on 2+
// ranks by bench/distributed_bench.py; rank 0 prints the medians and ratios,
// all measured in this run.
#include <todevice/distributed.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

/// 25 blocks of a 3x3 convolution (weight, bias) and a BatchNorm (weight, bias).
torch::nn::Sequential resnet_like_stack() {
  torch::nn::Sequential stack;
  for (int block = 0; block < 25; ++block) {
    stack->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 32, 3).padding(1)));
    stack->push_back(torch::nn::BatchNorm2d(32));
  }
  return stack;
}

/// Milliseconds one call of `step` takes, every rank starting together.
template <typename Step>
double time_ms(Step&& step) {
  todevice::distributed::barrier();
  auto start = std::chrono::steady_clock::now();
  step();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 30;
  todevice::distributed::init();
  auto stack = resnet_like_stack();
  std::vector<torch::Tensor> gradients;
  int64_t elements = 0;
  for (auto& p : stack->parameters()) {
    p.mutable_grad() = torch::randn_like(p);
    gradients.push_back(p.grad());
    elements += p.numel();
  }
  torch::Tensor flat = torch::randn({elements});

  // Warm up the connections (and pack the gradients into their bucket).
  todevice::distributed::average_gradients(*stack);
  todevice::distributed::average_tensors({flat});
  // The three take turns within each repetition (in a rotating order), so
  // that drift in the machine's speed affects them alike.
  torch::optim::SGD optimizer(stack->parameters(), 0.1); // what the tool's migration calls with
  std::vector<double> bucketed_ms, per_parameter_ms, one_buffer_ms;
  for (int i = 0; i < repetitions; ++i) {
    for (int turn = 0; turn < 3; ++turn) {
      switch ((i + turn) % 3) {
      case 0:
        bucketed_ms.push_back(time_ms([&] { todevice::distributed::average_gradients(optimizer); }));
        break;
      case 1:
        per_parameter_ms.push_back(time_ms([&] {
          for (const torch::Tensor& g : gradients)
            todevice::distributed::average_tensors({g});
        }));
        break;
      default:
        one_buffer_ms.push_back(time_ms([&] { todevice::distributed::average_tensors({flat}); }));
      }
    }
  }
  const double bucketed = median(bucketed_ms), per_parameter = median(per_parameter_ms),
               one_buffer = median(one_buffer_ms);
  // Ratios within each repetition, then their median: robust to drift.
  std::vector<double> to_per_parameter, to_one_buffer;
  for (int i = 0; i < repetitions; ++i) {
    to_per_parameter.push_back(per_parameter_ms[i] / bucketed_ms[i]);
    to_one_buffer.push_back(bucketed_ms[i] / one_buffer_ms[i]);
  }
  if (todevice::distributed::is_main()) {
    std::printf("%d ranks, %zu parameter tensors, %.2f MB of gradients, median of %d steps\n",
                todevice::distributed::world_size(), gradients.size(), elements * 4 / 1e6, repetitions);
    std::printf("  average_gradients (bucketed):     %8.3f ms\n", bucketed);
    std::printf("  one allreduce per parameter:      %8.3f ms  (%.2fx the bucketed time, paired median "
                "%.2fx; target >= 3)\n",
                per_parameter, per_parameter / bucketed, median(to_per_parameter));
    std::printf("  one allreduce of one flat buffer: %8.3f ms  (bucketed is %.2fx of it, paired median "
                "%.2fx; target <= 1.2)\n",
                one_buffer, bucketed / one_buffer, median(to_one_buffer));
  }
}
