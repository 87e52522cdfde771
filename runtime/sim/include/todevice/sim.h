// todevice_sim: a simulated accelerator, to test a migrated program without a GPU.
//
// Link the `todevice_sim` library and either name the device directly
//
//   torch::Device dev = todevice::sim::device();
//
// or run the unchanged program with `TODEVICE=sim` so that
// todevice::default_device() returns it. Tensors on the simulated device live
// in host memory, but behave like device tensors:
//  - mixing them with (non 0-dim) CPU tensors in one operator throws the same
//    "Expected all tensors to be on the same device" error CUDA throws;
//  - every operator computes bit-identical results to the CPU;
//  - host→device and device→host transfers are counted (stats());
//  - reading or writing their memory from host code (data_ptr(), accessor())
//    aborts with "todevice_sim: host code read/wrote simulated-device memory
//    ...; call .cpu() first".
// See docs/simulator.md.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <string>

namespace todevice {
namespace sim {

/// The simulated device: `torch::Device(torch::kXPU, 0)`. The simulator lives on
/// the XPU dispatch key, which a CPU-only LibTorch leaves unused (see
/// docs/simulator.md for why XPU). Throws c10::Error explaining why when the
/// simulator could not register (a real XPU backend was already present).
torch::Device device();

/// Human-readable name used in error messages:
/// "sim:0 (todevice_sim, on the XPU dispatch key)".
std::string device_name();

/// Transfers between the host and the simulated device made by the program
/// (tensor.to(), .cpu(), copy_(), printing, item(), ...). Copies the simulator
/// makes internally to run an operator are not counted.
struct TransferStats {
  std::uint64_t host_to_device_copies = 0;
  std::uint64_t host_to_device_bytes = 0; ///< bytes written on the device
  std::uint64_t device_to_host_copies = 0;
  std::uint64_t device_to_host_bytes = 0; ///< bytes written on the host
  /// Of host_to_device_copies, those of a host tensor copied before and not
  /// changed since (same storage and geometry, version counter and bytes):
  /// moves the program could make once. TODEVICE_SIM_REPORT=lines lists their lines.
  std::uint64_t host_to_device_again_unchanged = 0;
};

/// Counters since program start or the last reset_stats(). Thread-safe.
TransferStats stats();

/// Sets every counter to zero. Thread-safe.
void reset_stats();

/// One-line summary of `s`, the text printed to stderr at exit when the
/// environment variable TODEVICE_SIM_REPORT=1.
std::string format_stats(const TransferStats& s);

/// Calls of the heavy operators (matrix products, convolutions, recurrent
/// layers) the program made outside backward passes (which follow their
/// forward pass's devices), by where their first tensor lived. Counted once
/// count_operators() has run (it installs a callback on every operator call);
/// the operators the simulator runs on host aliases for a device operator are
/// not counted. A migrated model left on the CPU shows up here even when
/// nothing mixes devices.
struct OperatorStats {
  std::uint64_t heavy_on_device = 0;
  std::uint64_t heavy_on_host = 0;
  std::string first_heavy_on_host; ///< its name, e.g. "aten::addmm"; empty if none
};

/// Starts counting heavy operator calls (a no-op when counting already).
/// TODEVICE_SIM_REPORT=1 at startup starts it. Thread-safe.
void count_operators();

/// Counters since counting started. Thread-safe.
OperatorStats operator_stats();

/// One-line summary of `s`, printed after format_stats()'s at exit when
/// TODEVICE_SIM_REPORT=1 and operators are counted.
std::string format_operator_stats(const OperatorStats& s);

} // namespace sim
} // namespace todevice
