// Where the program's heavy operators run (matrix products, convolutions,
// recurrent layers): a migration that leaves a model on the CPU runs without a
// placement error when everything else stayed there too, so the copy counts
// alone cannot show it. Counted with a RecordFunction callback, which sees
// every operator call the program makes through the dispatcher. Compiled with
// NDEBUG whatever the build type, as LibTorch is (runtime/CMakeLists.txt):
// RecordFunction's layout depends on it.
#include "sim_internal.h"

#include "todevice/sim.h"

#include <ATen/record_function.h>

#include <atomic>
#include <cstring>
#include <mutex>

namespace todevice {
namespace sim {
namespace detail {
namespace {

std::atomic<std::uint64_t> heavy_on_device{0}, heavy_on_host{0};
std::once_flag first_on_host_set;
// Written once, under first_on_host_set. A plain array: the report reads it at
// exit, possibly after a std::string here would have been destroyed.
char first_on_host[96] = {};

// The CPU kernels the simulator runs for an operator call their own operators
// on host aliases of device memory: those are the device's work, not the host's.
thread_local int fallback_depth = 0;
// Backward passes follow their forward pass's devices, and the recurrent
// layers' backward runs on the CPU by design (sim_cpu_path.cpp): only the
// program's forward calls are counted.
thread_local int backward_depth = 0;

std::unique_ptr<at::ObserverContext> enter_backward(const at::RecordFunction&) {
  ++backward_depth;
  return nullptr;
}
void leave_backward(const at::RecordFunction&, at::ObserverContext*) { --backward_depth; }

bool is_heavy(const char* name) {
  static const char* const heavy[] = {"aten::mm",         "aten::addmm",       "aten::bmm",
                                      "aten::baddbmm",    "aten::addbmm",      "aten::convolution", 
                                      "aten::lstm",       "aten::gru",         "aten::rnn_tanh",
                                      "aten::rnn_relu"};
  for (const char* h : heavy)
    if (std::strcmp(name, h) == 0)
      return true;
  return false;
}

std::unique_ptr<at::ObserverContext> count_heavy(const at::RecordFunction& fn) {
  if (fallback_depth > 0 || backward_depth > 0 || !is_heavy(fn.name()))
    return nullptr;
  for (const c10::IValue& input : fn.inputs()) {
    if (!input.isTensor() || !input.toTensor().defined())
      continue;
    if (is_sim(input.toTensor())) {
      heavy_on_device.fetch_add(1, std::memory_order_relaxed);
    } else {
      heavy_on_host.fetch_add(1, std::memory_order_relaxed);
      std::call_once(first_on_host_set,
                     [&] { std::strncpy(first_on_host, fn.name(), sizeof first_on_host - 1); });
    }
    break;
  }
  return nullptr;
}

} // namespace

FallbackScope::FallbackScope() { ++fallback_depth; }
FallbackScope::~FallbackScope() { --fallback_depth; }

std::atomic<bool> counting{false};

bool counting_operators() { return counting.load(); }

} // namespace detail

void count_operators() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    at::addGlobalCallback(at::RecordFunctionCallback(&detail::count_heavy)
                              .needsInputs(true)
                              .scopes({at::RecordScope::FUNCTION}));
    at::addGlobalCallback(
        at::RecordFunctionCallback(&detail::enter_backward, &detail::leave_backward)
            .scopes({at::RecordScope::BACKWARD_FUNCTION}));
    detail::counting.store(true);
  });
}

OperatorStats operator_stats() {
  OperatorStats s;
  s.heavy_on_device = detail::heavy_on_device.load();
  s.heavy_on_host = detail::heavy_on_host.load();
  if (s.heavy_on_host > 0)
    s.first_heavy_on_host = detail::first_on_host;
  return s;
}

std::string format_operator_stats(const OperatorStats &s) {
  std::string line = "todevice_sim: heavy operators: " + std::to_string(s.heavy_on_device) +
                     " on the device, " + std::to_string(s.heavy_on_host) + " on the host";
  if (!s.first_heavy_on_host.empty())
    line += " (the first: " + s.first_heavy_on_host + ")";
  return line;
}

} // namespace sim
} // namespace todevice
