// todevice::distributed: data-parallel training across processes and machines
// on LibTorch's own engine (c10d process groups: Gloo for CPU tensors, NCCL for
// CUDA ones when LibTorch has it), started the way torchrun starts programs.
//
//   todevice::distributed::init();                  // first thing in main()
//   auto model = std::make_shared<Net>();
//   model->to(todevice::distributed::device());
//   todevice::distributed::broadcast_parameters(*model);
//   auto loader = torch::data::make_data_loader<todevice::distributed::RandomSampler>(
//       dataset, batch_size);                       // each rank its own shard
//   for (...) {
//     loss.backward();
//     todevice::distributed::average_gradients(optimizer);
//     optimizer.step();
//   }
//   if (todevice::distributed::is_main()) torch::save(model, "model.pt");
//
// Launch: `torchrun --nproc_per_node=N --no_python ./train`, `mpirun` with the
// same variables, or by hand (docs/distributed.md). Without RANK/WORLD_SIZE in
// the environment the program is a single process and every call below is a
// no-op (or the identity), so a program migrated with --distributed still runs
// as before.
#pragma once

#include <torch/torch.h>

#include <chrono>
#include <cstddef>
#include <string>

namespace todevice {
namespace distributed {

/// What the launcher says about this process (torchrun's variables).
struct Environment {
  int rank = 0;       ///< RANK: this process among all, 0 .. world_size-1
  int world_size = 1; ///< WORLD_SIZE: how many processes train together
  int local_rank = 0; ///< LOCAL_RANK: this process among those of its machine
  std::string master_addr = "127.0.0.1"; ///< MASTER_ADDR: where rank 0 listens
  int master_port = 29500;               ///< MASTER_PORT
  bool launched = false; ///< whether RANK or WORLD_SIZE is set at all
};

/// Reads RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and MASTER_PORT. Throws
/// std::invalid_argument, in one line naming the variable, for a value that is
/// not a number, WORLD_SIZE < 1, RANK outside [0, WORLD_SIZE), a port outside
/// [1, 65535], or only one of RANK and WORLD_SIZE set.
Environment read_environment();

struct Options {
  /// How long any collective, and connecting to the master, may take before
  /// the process fails with an error (a rank that died makes the others fail
  /// within it, never hang). Default: TODEVICE_DIST_TIMEOUT (seconds), else 300 s.
  std::chrono::milliseconds timeout{0};
  /// Gradients are averaged in buckets of about this many bytes, one
  /// allreduce per bucket (DistributedDataParallel's default, 25 MiB).
  std::size_t bucket_bytes = 25u << 20;
};

/// Joins the process group the environment describes (rank 0 hosts the
/// TCPStore at MASTER_ADDR:MASTER_PORT). Does nothing for a single process.
/// Calling it again does nothing. Throws std::invalid_argument on bad
/// variables (see read_environment), or std::runtime_error naming
/// MASTER_ADDR:MASTER_PORT when the master cannot be reached within the timeout.
void join(const Options& options = Options());

/// join(), for the start of main(): on bad variables or an unreachable master
/// it prints join()'s one-line error to stderr and exits with status 1, as a
/// program does on a bad command-line argument.
void init(const Options& options = Options());

/// True after init() in a process launched with several ranks.
bool is_initialized();
int rank();       ///< 0 for a single process
int world_size(); ///< 1 for a single process
int local_rank(); ///< 0 for a single process
/// True on rank 0 (and in a single process): the one that prints and saves.
bool is_main();

/// This process's device: `cuda:LOCAL_RANK` when CUDA is available (modulo
/// the number of GPUs: ranks beyond it share them), else
/// todevice::default_device() (TODEVICE, else the CPU). Usable before init().
torch::Device device();

/// The process group this process's collectives use: "nccl" for CUDA tensors
/// when LibTorch has NCCL and each process of the machine has a GPU of its own
/// (NCCL refuses two ranks on one GPU), else "gloo" (tensors on another device
/// than the CPU go through a host copy); "none" in a single process. A build
/// against a LibTorch without c10d's Gloo headers runs single processes only.
const char* backend();

/// Copies rank 0's parameters and buffers to every rank, so all start from
/// the same model (after it is built, and after a checkpoint is loaded).
void broadcast_parameters(torch::nn::Module& module);

/// Averages the gradients of `module`'s parameters (or of the parameters the
/// optimizer updates) over all ranks: call after backward(), before step().
/// Gradients are packed into buckets of Options::bucket_bytes (by dtype and
/// device) and each bucket is summed with one allreduce. Parameters without a
/// gradient on every rank must be the same on every rank (as with DDP).
void average_gradients(torch::nn::Module& module);
void average_gradients(torch::optim::Optimizer& optimizer);

/// Averages `tensors` in place over all ranks, in buckets as above (a
/// contiguous tensor alone in its bucket is reduced where it is, uncopied).
void average_tensors(const std::vector<torch::Tensor>& tensors);

/// Waits until every rank reaches it.
void barrier();

/// The mean of `value` over all ranks (a loss or an accuracy to print).
double average(double value);

/// Data-loader samplers: each rank iterates its own shard of the dataset, and
/// a random one is reshuffled at every epoch (each pass over the loader), the
/// same way on every rank. In a single process they are LibTorch's
/// SequentialSampler and RandomSampler, drawing the same numbers.
/// `make_data_loader<todevice::distributed::RandomSampler>(dataset, batch)`.
namespace detail {
/// What both samplers share: LibTorch's sampler for this process's shard, to
/// which every call goes.
class ShardSampler : public torch::data::samplers::Sampler<> {
 public:
  void reset(torch::optional<size_t> new_size = torch::nullopt) override;
  torch::optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(torch::serialize::OutputArchive& archive) const override;
  void load(torch::serialize::InputArchive& archive) override;

 protected:
  std::unique_ptr<torch::data::samplers::Sampler<>> inner_;
};
} // namespace detail

class SequentialSampler : public detail::ShardSampler {
 public:
  explicit SequentialSampler(size_t size);
};

class RandomSampler : public detail::ShardSampler {
 public:
  explicit RandomSampler(size_t size);
  /// A new epoch: a new shuffle, the same on every rank.
  void reset(torch::optional<size_t> new_size = torch::nullopt) override;

 private:
  torch::data::samplers::DistributedRandomSampler* distributed_ = nullptr;
  size_t epoch_ = 0;
};

} // namespace distributed
} // namespace todevice
