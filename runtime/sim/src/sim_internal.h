// Internal pieces of todevice_sim shared by its source files.
//
// How the simulator works (details in docs/simulator.md):
//  - sim_allocator.cpp: device memory is a memfd mapped twice. The PROT_NONE
//    view is the tensor's data pointer (so host code touching it faults, which
//    the SIGSEGV handler reports); the read-write view is what the simulator
//    itself reads and writes.
//  - sim_alias.cpp: CpuAliases turns simulated tensors into CPU tensors over the
//    read-write view (same sizes, strides, offset, shared memory) and maps the
//    CPU kernel's results back to simulated tensors.
//  - sim_fallback.cpp: the boxed kernel for every operator without a native
//    one: placement check, then the CPU kernel on aliases.
//  - sim_ops.cpp: the few native kernels (allocation, cross-device copies).
//  - sim_cpu_path.cpp: composites that take another path on a device than on
//    the CPU (recurrent layers, adaptive pooling, group norm, attention).
//  - sim_hooks.cpp: the XPU hooks LibTorch 2.x asks which accelerator is present.
//  - sim_source_lines.cpp: the program's own source line of a placement error,
//    a host access of device memory, or a copy (TODEVICE_SIM_REPORT=lines).
//  - sim_repeated_copies.cpp: copies of a host tensor unchanged since its last
//    copy ("moved again, unchanged").
//  - sim.cpp: registration, public API, transfer statistics.
#pragma once

#include <ATen/ATen.h>
#include <c10/core/Allocator.h>
#include <torch/library.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace todevice {
namespace sim {
namespace detail {

constexpr c10::DeviceType kSimType = c10::DeviceType::XPU;
constexpr c10::DispatchKey kSimKey = c10::DispatchKey::XPU;

inline bool is_sim(const at::Tensor& t) {
  return t.defined() && t.device().type() == kSimType;
}

// --- sim_allocator.cpp -------------------------------------------------------
c10::Allocator* allocator();
// Host-accessible address of the first byte of `p` (a simulated-device data
// pointer). Memory not allocated by the simulator (e.g. from_blob on the XPU
// device) is ordinary host memory and is returned unchanged.
void* host_view(const c10::DataPtr& p);
// Installs the SIGSEGV handler that reports host access to device memory.
void install_fault_handler();

// --- sim_hooks.cpp -------------------------------------------------------------
// Whether XPU hooks are registered already (a real XPU backend), and
// registering the simulator's (LibTorch 2.x asks them which accelerator is
// present; 1.13 has none: both do nothing there).
bool accelerator_hooks_taken();
void register_accelerator_hooks();

// --- sim_source_lines.cpp -------------------------------------------------------
// The return addresses on the calling thread's stack that lie in the program's
// own objects (not LibTorch, todevice or the C/C++ runtime), innermost first,
// at most `max`: cheap, nothing is symbolized.
std::vector<void*> program_addresses(std::size_t max);
// The same for a stack backtrace() recorded earlier (dladdr is slow on
// LibTorch's large symbol tables, so allocations keep raw stacks and filter
// them only when one is reported).
std::vector<void*> program_addresses_of(void* const* frames, int count, std::size_t max);
// For each stack of program_addresses, the program's own place in it:
// "train.cpp:42 in train_step", "in train_step" without debug info, "" if
// unknown. Symbolizes with addr2line, once per object for all stacks.
std::vector<std::string> describe_sites(const std::vector<std::vector<void*>>& stacks);
// describe_sites of the calling stack.
std::string program_site();

// --- sim_repeated_copies.cpp -----------------------------------------------------
// Whether `source`, a host tensor being copied to the device, was copied
// before and has not changed since (same storage and geometry, version
// counter and bytes): a move the program could make once. Records this copy.
bool copied_before_unchanged(const at::Tensor& source);

// --- sim.cpp -----------------------------------------------------------------
// `source`: the host tensor copied (copied_before_unchanged).
void count_host_to_device(const at::Tensor& source, std::uint64_t bytes);
void count_device_to_host(std::uint64_t bytes);

// Heavy operator calls, by device (sim_operators.cpp, count_operators()).
// Operators run while a FallbackScope is alive are the simulator's own work.
bool counting_operators();
struct FallbackScope {
  FallbackScope();
  ~FallbackScope();
  FallbackScope(const FallbackScope&) = delete;
  FallbackScope& operator=(const FallbackScope&) = delete;
};

// --- sim_ops.cpp / sim_fallback.cpp --------------------------------------------
void register_native_kernels(torch::Library& aten_xpu);
// For the XPU and AutogradXPU keys.
void register_dropout(torch::Library& aten_xpu_or_autograd_xpu);
// For the XPU and AutogradXPU keys (sim_cpu_path.cpp).
void register_cpu_path_operators(torch::Library& aten_xpu_or_autograd_xpu);
// For the Conjugate and Negative keys.
void register_conjugation_passthrough(torch::Library& aten_conj_or_neg);
// After register_native_kernels (it skips operators with an XPU kernel).
void register_fallback(torch::Library& all_xpu, torch::Library& aten_xpu);

// --- sim_alias.cpp -------------------------------------------------------------
// The CPU view of the simulated tensors of one operator call. All aliases of
// one simulated storage share one CPU storage, so the CPU kernel's overlap
// checks and in-place semantics behave exactly as on the CPU.
class CpuAliases {
 public:
  // A CPU tensor with the same geometry over the same memory (`t` itself when
  // it is not a simulated tensor). The same TensorImpl always maps to the same
  // alias.
  at::Tensor alias(const at::Tensor& t);
  c10::Storage alias(const c10::Storage& s);

  // After the CPU kernel ran: propagates storage reallocations (resize_) and
  // geometry changes (resize_, set_, as_strided_, ...) of the aliases back to
  // the simulated tensors.
  void write_back();

  // Maps a tensor returned by the CPU kernel to the simulated device: the
  // simulated input it aliases, a simulated view over the same storage, or a
  // fresh copy on the device. CPU inputs returned as-is stay on the CPU.
  at::Tensor result(const at::Tensor& cpu);

 private:
  struct StorageEntry {
    c10::Storage sim;
    c10::Storage cpu;
    const void* host = nullptr; // the alias' data pointer when it was made (compared only)
    std::size_t nbytes = 0;
  };
  c10::Storage sim_storage_for(const c10::Storage& cpu);

  std::unordered_map<c10::StorageImpl*, StorageEntry> by_sim_;
  std::unordered_map<c10::StorageImpl*, c10::StorageImpl*> sim_of_cpu_;
  // (simulated tensor, its alias), in creation order.
  std::vector<std::pair<at::Tensor, at::Tensor>> tensors_;
  std::vector<at::Tensor> cpu_inputs_;
};

// A new simulated tensor holding a copy of `cpu` (same geometry, dtype, bits).
at::Tensor copy_to_new_sim(const at::Tensor& cpu);

} // namespace detail
} // namespace sim
} // namespace todevice
