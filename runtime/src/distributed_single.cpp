// todevice::distributed built against a LibTorch whose c10d Gloo headers are
// missing (runtime/cmake/TodeviceC10d.cmake found none): a program migrated
// with --distributed still runs as one process, as it did before; launched
// with several ranks it stops with one line saying why.
#include "distributed_environment.h"

#include "todevice/distributed.h"

#include <stdexcept>

namespace todevice {
namespace distributed {

void join(const Options&) {
  const Environment env = read_environment();
  if (env.world_size > 1)
    throw std::runtime_error(
        "todevice::distributed: WORLD_SIZE=" + std::to_string(env.world_size) +
        " but this todevice was built without c10d's Gloo process group (LibTorch's "
        "Gloo headers were not found when it was built): only single processes run");
}

bool is_initialized() { return false; }
int rank() { return 0; }
int world_size() { return 1; }
int local_rank() { return 0; }
bool is_main() { return true; }
const char* backend() { return "none"; }
void broadcast_parameters(torch::nn::Module&) {}
void average_gradients(torch::nn::Module&) {}
void average_gradients(torch::optim::Optimizer&) {}
void average_tensors(const std::vector<torch::Tensor>&) {}
void barrier() {}
double average(double value) { return value; }

} // namespace distributed
} // namespace todevice
