// todevice_sim: registration of the simulated device, public API, statistics.
//
// Why the XPU dispatch key: Module::to() moves parameters with set_data(),
// which LibTorch 1.13 only allows between dense backends of one family (CPU,
// CUDA, MPS, HIP, XPU), so PrivateUse1 or Meta cannot host a device that
// modules move to. A CPU-only LibTorch leaves XPU unused; when a real XPU
// backend is present the simulator refuses to register (see register_all).
#include "todevice/sim.h"

#include "environment.h"
#include "sim_internal.h"
#include "todevice/todevice.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

namespace todevice {
namespace sim {
namespace detail {
namespace {

// --- device guard ------------------------------------------------------------
// Like c10::impl::FakeGuardImpl, but with one device: the autograd engine
// starts one worker thread per device a guard reports.
struct SimGuardImpl final : public c10::impl::DeviceGuardImplInterface {
  c10::DeviceType type() const override { return kSimType; }
  c10::Device exchangeDevice(c10::Device d) const override {
    check(d);
    return getDevice();
  }
  c10::Device getDevice() const override { return c10::Device(kSimType, 0); }
  void setDevice(c10::Device d) const override { check(d); }
  void uncheckedSetDevice(c10::Device) const noexcept override {}
  c10::Stream getStream(c10::Device d) const noexcept override {
    return c10::Stream(c10::Stream::DEFAULT, c10::Device(kSimType, d.index() < 0 ? 0 : d.index()));
  }
  c10::Stream exchangeStream(c10::Stream s) const noexcept override { return s; }
  c10::DeviceIndex deviceCount() const noexcept override { return 1; }
  void record(void**, const c10::Stream&, const c10::DeviceIndex,
              const c10::EventFlag) const override {}
  void block(void*, const c10::Stream&) const override {}
  bool queryEvent(void*) const override { return true; }
  void destroyEvent(void*, const c10::DeviceIndex) const noexcept override {}

 private:
  static void check(c10::Device d) {
    TORCH_CHECK(d.type() == kSimType && d.index() <= 0,
                "todevice_sim has a single device, sim:0; got ", d);
  }
};

// --- statistics ----------------------------------------------------------------
// h2d copies, bytes, d2h copies, bytes, h2d copies of a host tensor unchanged since its last copy
std::array<std::atomic<std::uint64_t>, 5> counters;

// TODEVICE_SIM_REPORT=lines: the program's stack (program_addresses) of each
// host->device copy, with the copies and bytes made there. Off, a copy costs
// one load of `copy_lines_on` beyond copied_before_unchanged (always on: it
// feeds stats()).
std::atomic<bool> copy_lines_on{false};
struct CopiesAt {
  std::uint64_t copies = 0, bytes = 0;
  std::uint64_t again_unchanged = 0; ///< of them, copied_before_unchanged
};
std::mutex copy_lines_lock;
std::map<std::vector<void*>, CopiesAt>& copy_lines() {
  // Never destroyed: report_at_exit reads it after the statics made later are gone.
  static auto* lines = new std::map<std::vector<void*>, CopiesAt>();
  return *lines;
}

/// TODEVICE_SIM_REPORT=lines: the report with the source lines of the copies.
bool lines_requested() {
  const char* value = std::getenv("TODEVICE_SIM_REPORT");
  return value != nullptr && std::string(value) == "lines";
}

/// TODEVICE_SIM_REPORT=1 or =lines.
bool report_requested() {
  return todevice::detail::switched_on("TODEVICE_SIM_REPORT") || lines_requested();
}

/// The source lines of the host->device copies, most copies first, then most bytes.
void report_copy_lines() {
  std::vector<std::vector<void*>> stacks;
  std::vector<CopiesAt> counts;
  {
    std::lock_guard<std::mutex> guard(copy_lines_lock);
    for (const auto& [stack, at] : copy_lines()) {
      stacks.push_back(stack);
      counts.push_back(at);
    }
  }
  const std::vector<std::string> sites = describe_sites(stacks);
  std::map<std::string, CopiesAt> by_site;
  for (std::size_t i = 0; i < sites.size(); ++i) {
    CopiesAt& at = by_site[sites[i].empty() ? "(unknown place)" : sites[i]];
    at.copies += counts[i].copies;
    at.bytes += counts[i].bytes;
    at.again_unchanged += counts[i].again_unchanged;
  }
  std::vector<std::pair<std::string, CopiesAt>> lines(by_site.begin(), by_site.end());
  auto print_top = [&](const char* title, auto more) {
    std::sort(lines.begin(), lines.end(), [&](const auto& a, const auto& b) {
      return more(a.second, b.second) || (!more(b.second, a.second) && a.first < b.first);
    });
    std::fprintf(stderr, "todevice_sim: host->device copies by source line, %s:\n", title);
    for (std::size_t i = 0; i < lines.size() && i < 10; ++i)
      std::fprintf(stderr, "todevice_sim:   %8llu copies %12llu bytes  %s%s\n",
                   static_cast<unsigned long long>(lines[i].second.copies),
                   static_cast<unsigned long long>(lines[i].second.bytes), lines[i].first.c_str(),
                   lines[i].second.copies > 1 ? "  (repeated: a loop)" : "");
  };
  print_top("most copies", [](const CopiesAt& a, const CopiesAt& b) { return a.copies > b.copies; });
  print_top("most bytes", [](const CopiesAt& a, const CopiesAt& b) { return a.bytes > b.bytes; });
  // Each a move the program could make once, before its loop.
  std::sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) {
    return a.second.again_unchanged > b.second.again_unchanged ||
           (a.second.again_unchanged == b.second.again_unchanged && a.first < b.first);
  });
  if (lines.empty() || lines.front().second.again_unchanged == 0)
    return;
  std::fprintf(stderr, "todevice_sim: host->device copies of a host tensor moved again, unchanged "
                       "since its last copy (move it once):\n");
  for (std::size_t i = 0; i < lines.size() && i < 10 && lines[i].second.again_unchanged > 0; ++i)
    std::fprintf(stderr, "todevice_sim:   %8llu copies  %s\n",
                 static_cast<unsigned long long>(lines[i].second.again_unchanged),
                 lines[i].first.c_str());
}

void report_at_exit() {
  if (!report_requested())
    return;
  std::fprintf(stderr, "%s\n", format_stats(stats()).c_str());
  if (counting_operators())
    std::fprintf(stderr, "%s\n", format_operator_stats(operator_stats()).c_str());
  if (copy_lines_on.load())
    report_copy_lines();
}

// --- registration ---------------------------------------------------------------
// Empty when registered; otherwise why not (device() reports it).
std::string& registration_error() {
  static std::string error;
  return error;
}

std::string existing_xpu_backend() {
  if (c10::impl::hasDeviceGuardImpl(kSimType))
    return "a device guard for XPU is already registered";
  try {
    if (c10::GetAllocator(kSimType) != nullptr)
      return "an allocator for XPU is already registered";
  } catch (const c10::Error&) { // 1.13 asserts when none is set: the normal case
  }
  if (c10::Dispatcher::singleton().hasBackendFallbackForDispatchKey(kSimKey))
    return "a fallback kernel for the XPU dispatch key is already registered";
  if (accelerator_hooks_taken())
    return "XPU hooks are already registered";
  return {};
}

// Registrations happen here, not in TORCH_LIBRARY_IMPL blocks, so that none of
// them is made when a real XPU backend is present. Library objects are never
// destroyed, on purpose: tensors may outlive static destruction. They are kept
// in a trivially destructible global array, so they stay reachable (not leaks,
// for LeakSanitizer) after every static destructor has run.
torch::Library* kept_libraries[8];

torch::Library& keep(torch::Library* library) {
  for (torch::Library*& slot : kept_libraries)
    if (slot == nullptr)
      return *(slot = library);
  throw std::logic_error("todevice_sim: more kernel libraries than kept_libraries holds");
}

torch::Library& new_library(const char* ns, c10::DispatchKey key) {
  return keep(new torch::Library(torch::Library::IMPL, ns, key, __FILE__, __LINE__));
}

void register_all() {
  if (std::string clash = existing_xpu_backend(); !clash.empty()) {
    registration_error() =
        "todevice_sim: not registered: the simulator runs on the XPU dispatch key, but " + clash +
        " (a real XPU backend, such as Intel's extension, is linked). Use that device, or do not "
        "link todevice_sim into this program.";
    std::fprintf(stderr, "%s\n", registration_error().c_str());
    return;
  }
  static c10::impl::DeviceGuardImplRegistrar guard(kSimType, new SimGuardImpl());
  register_accelerator_hooks();
  c10::SetAllocator(kSimType, allocator());
  torch::Library& aten = new_library("aten", kSimKey);
  register_native_kernels(aten);
  register_fallback(new_library("_", kSimKey), aten);
  torch::Library& autograd = new_library("aten", c10::DispatchKey::AutogradXPU);
  for (torch::Library* library : {&aten, &autograd}) {
    register_dropout(*library);
    register_cpu_path_operators(*library);
  }
  for (c10::DispatchKey key : {c10::DispatchKey::Conjugate, c10::DispatchKey::Negative})
    register_conjugation_passthrough(new_library("aten", key));
  install_fault_handler();
  // The autograd engine runs a device's backward pass on its own thread, which
  // it initialises with at::init_num_threads(); the CPU's runs on the calling
  // thread, initialised lazily by the first at::parallel_for. Until then, oneDNN
  // and BLAS use OpenMP's default team size there, so a CPU convolution backward
  // could sum in another order than the simulator's. Initialising the loading
  // (main) thread now gives both the same team, hence bit-identical gradients.
  at::init_num_threads();
  todevice::register_named_device("sim", c10::Device(kSimType, 0));
  if (report_requested())
    count_operators();
  if (lines_requested())
    copy_lines_on.store(true);
  std::atexit(&report_at_exit);
}

const bool registered = (register_all(), true);

} // namespace

void count_host_to_device(const at::Tensor& source, std::uint64_t bytes) {
  counters[0].fetch_add(1, std::memory_order_relaxed);
  counters[1].fetch_add(bytes, std::memory_order_relaxed);
  const bool again_unchanged = copied_before_unchanged(source);
  if (again_unchanged)
    counters[4].fetch_add(1, std::memory_order_relaxed);
  if (!copy_lines_on.load(std::memory_order_relaxed))
    return;
  std::vector<void*> stack = program_addresses(16);
  std::lock_guard<std::mutex> guard(copy_lines_lock);
  CopiesAt& at = copy_lines()[std::move(stack)];
  ++at.copies;
  at.bytes += bytes;
  at.again_unchanged += again_unchanged ? 1 : 0;
}

void count_device_to_host(std::uint64_t bytes) {
  counters[2].fetch_add(1, std::memory_order_relaxed);
  counters[3].fetch_add(bytes, std::memory_order_relaxed);
}

} // namespace detail

torch::Device device() {
  TORCH_CHECK(detail::registration_error().empty(), detail::registration_error());
  return torch::Device(detail::kSimType, 0);
}

std::string device_name() { return "sim:0 (todevice_sim, on the XPU dispatch key)"; }

TransferStats stats() {
  TransferStats s;
  s.host_to_device_copies = detail::counters[0].load();
  s.host_to_device_bytes = detail::counters[1].load();
  s.device_to_host_copies = detail::counters[2].load();
  s.device_to_host_bytes = detail::counters[3].load();
  s.host_to_device_again_unchanged = detail::counters[4].load();
  return s;
}

void reset_stats() {
  for (auto& c : detail::counters)
    c.store(0);
}

std::string format_stats(const TransferStats& s) {
  std::ostringstream out;
  out << "todevice_sim: host->device: " << s.host_to_device_copies << " copies, "
      << s.host_to_device_bytes << " bytes; device->host: " << s.device_to_host_copies
      << " copies, " << s.device_to_host_bytes << " bytes; moved again unchanged: "
      << s.host_to_device_again_unchanged << " copies";
  return out.str();
}

} // namespace sim
} // namespace todevice
