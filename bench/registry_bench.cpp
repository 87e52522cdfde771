// Registry::to() against the loop it replaces, on the meta device (no GPU needed:
// meta allocates no memory and copies nothing, so what is measured is the per-tensor
// overhead of the registry itself, its worst case).
//
//   registry_bench [tensors=10000] [repetitions=15]
//
// Reports the best (min) and median time of each side: on a shared machine the
// minimum is the least noisy estimate of the cost itself.
#include "todevice/todevice.h"

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::vector<torch::Tensor> make_tensors(int n) {
  std::vector<torch::Tensor> tensors;
  tensors.reserve(n);
  for (int i = 0; i < n; ++i)
    tensors.push_back(torch::ones({4, 4}));
  return tensors;
}

double min(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 10000;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 31;
  const torch::Device device(torch::kMeta);
  std::vector<double> hand_ms, registry_ms, add_ms;

  for (int r = 0; r < reps; ++r) {
    // Fresh CPU tensors each time: meta tensors cannot come back. Which side is
    // allocated first alternates too, so neither always gets the fresher heap.
    std::vector<torch::Tensor> hand, registered;
    if (r % 2 == 0) {
      hand = make_tensors(n);
      registered = make_tensors(n);
    } else {
      registered = make_tensors(n);
      hand = make_tensors(n);
    }
    todevice::Registry registry;
    auto start = Clock::now();
    for (auto& t : registered)
      registry.add(t);
    add_ms.push_back(ms_since(start));

    // Alternate the order so neither side always runs with a warmer cache.
    auto run_hand = [&] {
      const auto t0 = Clock::now();
      for (auto& t : hand)
        t = t.to(device);
      hand_ms.push_back(ms_since(t0));
    };
    auto run_registry = [&] {
      const auto t0 = Clock::now();
      const auto result = registry.to(device);
      registry_ms.push_back(ms_since(t0));
      if (result.tensors != static_cast<std::size_t>(n) || !registered.back().is_meta()) {
        std::fprintf(stderr, "registry moved %zu tensors, expected %d\n", result.tensors, n);
        std::exit(1);
      }
    };
    if (r % 2 == 0) {
      run_hand();
      run_registry();
    } else {
      run_registry();
      run_hand();
    }
  }

  // Memory: heap in use before and after registering n tensors (tensors made first).
  auto tensors = make_tensors(n);
  malloc_trim(0);
  const auto before = mallinfo2().uordblks;
  {
    todevice::Registry registry;
    for (auto& t : tensors)
      registry.add(t);
    const auto after = mallinfo2().uordblks;
    std::printf("memory: %zu bytes of heap for %d registrations = %.1f bytes per registered object\n",
                after - before, n, static_cast<double>(after - before) / n);
  }

  const double hand = min(hand_ms), reg = min(registry_ms);
  const double hand_med = median(hand_ms), reg_med = median(registry_ms);
  // Each repetition runs both sides back to back: the median of those paired ratios
  // cancels the machine's drift between repetitions.
  std::vector<double> paired;
  for (std::size_t i = 0; i < hand_ms.size(); ++i)
    paired.push_back(registry_ms[i] / hand_ms[i]);
  std::printf("tensors: %d x [4,4] float, cpu -> meta, %d repetitions\n", n, reps);
  std::printf("                              best       median\n");
  std::printf("hand loop  t = t.to(device): %8.3f ms %8.3f ms  (best %.0f ns/tensor)\n", hand, hand_med, hand * 1e6 / n);
  std::printf("registry.to(device):         %8.3f ms %8.3f ms  (best %.0f ns/tensor)\n", reg, reg_med, reg * 1e6 / n);
  std::printf("ratio registry / hand loop:  %8.3f    %8.3f     (target <= 1.10)\n", reg / hand, reg_med / hand_med);
  std::printf("median of paired ratios:     %8.3f\n", median(paired));
  std::printf("registering (add) %d tensors: %.3f ms\n", n, median(add_ms));
  std::printf("all runs, ms: hand");
  for (double v : hand_ms) std::printf(" %.2f", v);
  std::printf(" | registry");
  for (double v : registry_ms) std::printf(" %.2f", v);
  std::printf("\n");
  return 0;
}
