// todevice::distributed: the launcher's variables (torchrun's), read the same
// way whether or not this build has c10d's process groups.
#include "distributed_environment.h"

#include "todevice/distributed.h"
#include "todevice/todevice.h"

#include <cerrno>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>

namespace todevice {
namespace distributed {
namespace detail {

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

int integer_variable(const char* name, int fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr)
    return fallback;
  char* end = nullptr;
  errno = 0;
  long value = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || errno != 0 || value < INT32_MIN || value > INT32_MAX)
    throw std::invalid_argument(std::string("todevice::distributed: ") + name + "='" + text +
                                "' is not a number");
  return static_cast<int>(value);
}

std::chrono::milliseconds default_timeout() {
  int seconds = integer_variable("TODEVICE_DIST_TIMEOUT", 300);
  if (seconds < 1)
    throw std::invalid_argument("todevice::distributed: TODEVICE_DIST_TIMEOUT='" +
                                std::to_string(seconds) + "' must be at least 1 (seconds)");
  return std::chrono::seconds(seconds);
}

bool one_gpu_per_process() {
  const int processes = integer_variable("LOCAL_WORLD_SIZE", integer_variable("WORLD_SIZE", 1));
  return torch::cuda::is_available() &&
         processes <= static_cast<int>(torch::cuda::device_count());
}

} // namespace detail

using detail::integer_variable;

Environment read_environment() {
  Environment env;
  const bool has_rank = std::getenv("RANK") != nullptr;
  const bool has_world = std::getenv("WORLD_SIZE") != nullptr;
  env.launched = has_rank || has_world;
  if (!env.launched)
    return env;
  if (!has_rank || !has_world)
    throw std::invalid_argument(std::string("todevice::distributed: ") +
                                (has_rank ? "RANK is set but WORLD_SIZE is not"
                                          : "WORLD_SIZE is set but RANK is not") +
                                " (a launcher such as torchrun sets both)");
  env.world_size = integer_variable("WORLD_SIZE", 1);
  env.rank = integer_variable("RANK", 0);
  env.local_rank = integer_variable("LOCAL_RANK", 0);
  env.master_port = integer_variable("MASTER_PORT", 29500);
  if (const char* addr = std::getenv("MASTER_ADDR"); addr != nullptr && *addr != '\0')
    env.master_addr = addr;
  if (env.world_size < 1)
    throw std::invalid_argument("todevice::distributed: WORLD_SIZE=" +
                                std::to_string(env.world_size) + " must be at least 1");
  if (env.rank < 0 || env.rank >= env.world_size)
    throw std::invalid_argument("todevice::distributed: RANK=" + std::to_string(env.rank) +
                                " must be in [0, WORLD_SIZE=" + std::to_string(env.world_size) +
                                ")");
  if (env.local_rank < 0)
    throw std::invalid_argument("todevice::distributed: LOCAL_RANK=" +
                                std::to_string(env.local_rank) + " must not be negative");
  if (env.master_port < 1 || env.master_port > 65535)
    throw std::invalid_argument("todevice::distributed: MASTER_PORT=" +
                                std::to_string(env.master_port) + " must be in [1, 65535]");
  return env;
}

torch::Device device() {
  if (torch::cuda::is_available()) {
    // Several processes on a machine with fewer GPUs share them round-robin
    // (2 ranks on one GPU: both on cuda:0).
    const int local = detail::integer_variable("LOCAL_RANK", 0) %
                      static_cast<int>(torch::cuda::device_count());
    return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(local));
  }
  return default_device();
}

void init(const Options& options) {
  // A process cannot train without its group: like a bad command-line
  // argument, a bad variable or an unreachable master ends it with one line.
  try {
    join(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::fflush(stderr);
    std::exit(1);
  }
}

} // namespace distributed
} // namespace todevice
