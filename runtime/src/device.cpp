#include "todevice/device.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>

namespace todevice {
namespace {

std::mutex& named_devices_mutex() {
  static std::mutex m;
  return m;
}

std::map<std::string, torch::Device>& named_devices() {
  static std::map<std::string, torch::Device> devices;
  return devices;
}

torch::Device parse_device(const std::string& value) {
  {
    std::lock_guard<std::mutex> lock(named_devices_mutex());
    auto it = named_devices().find(value);
    if (it != named_devices().end())
      return it->second;
  }
  if (value == "sim")
    throw std::invalid_argument(
        "TODEVICE=sim: the simulated accelerator is not linked into this program "
        "(link the todevice_sim library)");
  try {
    return torch::Device(value);
  } catch (const std::exception&) {
    throw std::invalid_argument("TODEVICE='" + value +
                                "' is not a device (expected cpu, cuda, cuda:N or sim)");
  }
}

} // namespace

void register_named_device(const std::string& name, torch::Device device) {
  std::lock_guard<std::mutex> lock(named_devices_mutex());
  named_devices().insert_or_assign(name, device);
}

torch::Device default_device() {
  if (const char* env = std::getenv("TODEVICE"); env != nullptr && *env != '\0')
    return parse_device(env);
  return torch::cuda::is_available() ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
}

} // namespace todevice
