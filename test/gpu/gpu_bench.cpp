// The GPU proof's benchmark (test/gpu/prove runs it): on the device
// todevice::default_device() finds (cuda:0 on a GPU machine; TODEVICE=sim in
// CI's CPU mode), in one process,
//  1. Registry::to() (small tensors coalesced into pinned staging buckets when
//     CUDA is there) against the loop it replaces, `t = t.to(device)`, for
//     many small tensors and a few large ones;
//  2. the data-loader adapter (todevice::on_device) moving each batch with
//     non_blocking against blocking, with a matmul per batch to overlap with,
//     from pageable batches (what LibTorch's loaders give) and pinned ones.
// Each case is repeated; every repetition starts from fresh CPU tensors made
// outside the timed part, and a CUDA device is synchronised before the clock
// stops. Prints one JSON object per case, on lines starting with "bench ".
//
//   gpu_bench [--quick]
#include "todevice/todevice.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

void synchronize(torch::Device device) {
  if (device.is_cuda())
    torch::cuda::synchronize(device.index());
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Median milliseconds of `timed` over `reps` runs, `setup` run untimed before each.
double median_ms(int reps, torch::Device device, const std::function<void()>& setup,
                 const std::function<void()>& timed) {
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    setup();
    synchronize(device);
    const auto start = Clock::now();
    timed();
    synchronize(device);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  return median(ms);
}

std::vector<torch::Tensor> cpu_tensors(int count, std::vector<int64_t> shape) {
  std::vector<torch::Tensor> tensors;
  for (int i = 0; i < count; ++i)
    tensors.push_back(torch::full(shape, static_cast<float>(i % 7)));
  return tensors;
}

/// The sum of every tensor, on the CPU: both sides must have moved the same values.
double checksum(const std::vector<torch::Tensor>& tensors, torch::Device device) {
  double sum = 0;
  for (const auto& t : tensors) {
    if (t.device() != device)
      return -1; // not moved: reported as a mismatch
    sum += t.sum().cpu().item<double>();
  }
  return sum;
}

void print_case(const char* kind, const std::string& what, torch::Device device, int reps,
                const char* base_name, double base_ms, const char* other_name, double other_ms,
                bool same_result) {
  std::printf("bench {\"kind\": \"%s\", \"case\": \"%s\", \"device\": \"%s\", \"repetitions\": %d, "
              "\"%s_ms\": %.4f, \"%s_ms\": %.4f, \"speedup\": %.3f, \"same_result\": %s}\n",
              kind, what.c_str(), device.str().c_str(), reps, base_name, base_ms, other_name,
              other_ms, base_ms / other_ms, same_result ? "true" : "false");
  std::fflush(stdout);
}

void transfer_case(torch::Device device, int count, std::vector<int64_t> shape, int reps) {
  std::vector<torch::Tensor> hand, registered;
  const double hand_ms = median_ms(
      reps, device, [&] { hand = cpu_tensors(count, shape); },
      [&] {
        for (auto& t : hand)
          t = t.to(device);
      });
  const double registry_ms = median_ms(
      reps, device, [&] { registered = cpu_tensors(count, shape); },
      [&] {
        todevice::Registry registry;
        registry.add(registered);
        registry.to(device);
      });
  std::string what = std::to_string(count) + " x " + std::to_string(shape[0]);
  for (std::size_t d = 1; d < shape.size(); ++d)
    what += "x" + std::to_string(shape[d]);
  what += " float";
  print_case("transfer", what, device, reps, "loop", hand_ms, "registry", registry_ms,
             checksum(hand, device) == checksum(registered, device));
}

void loader_case(torch::Device device, int batches, int64_t rows, bool pinned, int reps) {
  const auto weight = torch::full({rows, rows}, 1.0f / rows, torch::device(device));
  std::vector<torch::Tensor> loader;
  auto make_batches = [&] {
    loader.clear();
    for (int b = 0; b < batches; ++b) {
      auto batch = torch::full({rows, rows}, static_cast<float>(b % 5));
      loader.push_back(pinned ? batch.pin_memory() : batch);
    }
  };
  double blocking_result = 0, non_blocking_result = 0;
  auto epoch = [&](bool non_blocking, double& result) {
    torch::Tensor total = torch::zeros({}, torch::device(device));
    for (auto& batch : todevice::on_device(loader, device, non_blocking))
      total += batch.matmul(weight).sum();
    result = total.item<double>();
  };
  const double blocking_ms =
      median_ms(reps, device, make_batches, [&] { epoch(false, blocking_result); });
  const double non_blocking_ms =
      median_ms(reps, device, make_batches, [&] { epoch(true, non_blocking_result); });
  const std::string what = std::to_string(batches) + " batches of " + std::to_string(rows) + "x" +
                           std::to_string(rows) + " float, " + (pinned ? "pinned" : "pageable");
  print_case("loader", what, device, reps, "blocking", blocking_ms, "non_blocking",
             non_blocking_ms, blocking_result == non_blocking_result);
}

} // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const torch::Device device = todevice::default_device();
  const int reps = quick ? 3 : 11;
  std::printf("device %s\n", device.str().c_str());
  transfer_case(device, quick ? 100 : 1000, {16, 16}, reps);
  transfer_case(device, quick ? 1000 : 10000, {16, 16}, reps);
  transfer_case(device, 4, quick ? std::vector<int64_t>{256, 1024} : std::vector<int64_t>{4096, 4096},
                reps);
  const int64_t rows = quick ? 128 : 2048;
  const int batches = quick ? 4 : 32;
  loader_case(device, batches, rows, false, reps);
  if (device.is_cuda()) // pin_memory() needs CUDA
    loader_case(device, batches, rows, true, reps);
  return 0;
}
