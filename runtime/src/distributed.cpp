// todevice::distributed on c10d: a TCPStore hosted by rank 0 for the rendezvous,
// a Gloo process group for the collectives (NCCL for CUDA tensors when
// LibTorch is built with it). Nothing here moves bytes itself.
#include "todevice/distributed.h"

#include "buckets.h"
#include "distributed_environment.h"
#include "environment.h"
#include "todevice/todevice.h"
#include "torch_compat.h"

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <c10/util/Logging.h>
#include <c10/util/strides.h>
#include <torch/csrc/utils/tensor_flatten.h>
#ifdef USE_C10D_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace todevice {
namespace distributed {
namespace {

using detail::default_timeout;
using detail::first_line;

// LibTorch 2.x's c10d logs every failed connection attempt to stderr (with a
// backtrace) before it throws; the exception already says it all. c10d asks
// caffe2_log_level before logging, so FATAL for the scope silences only that.
class QuietLibTorchLog {
 public:
  QuietLibTorchLog() : saved_(FLAGS_caffe2_log_level) { FLAGS_caffe2_log_level = 3; } // FATAL
  ~QuietLibTorchLog() { FLAGS_caffe2_log_level = saved_; }
  QuietLibTorchLog(const QuietLibTorchLog&) = delete;
  QuietLibTorchLog& operator=(const QuietLibTorchLog&) = delete;

 private:
  int saved_;
};

struct State {
  Environment env;
  Options options;
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> gloo;
#ifdef USE_C10D_NCCL
  c10::intrusive_ptr<c10d::ProcessGroupNCCL> nccl;
#endif
  bool initialized = false;
};

State& state() {
  static State s;
  return s;
}

/// Runs a collective and waits for it; a failure (a peer that died, a timeout)
/// becomes one clear error naming what failed.
void run(const char* what, const c10::intrusive_ptr<c10d::Work>& work) {
  try {
    work->wait();
  } catch (const std::exception& e) {
    const State& s = state();
    throw std::runtime_error(
        "todevice::distributed: rank " + std::to_string(s.env.rank) + " of " +
        std::to_string(s.env.world_size) + ": " + what + " failed (another rank stopped, or " +
        "did not answer within " + std::to_string(s.options.timeout.count() / 1000) +
        " s, TODEVICE_DIST_TIMEOUT): " + first_line(e.what()));
  }
}

/// Runs `call(group, tensors)` on the group for `flat`'s device: NCCL for CUDA
/// tensors when LibTorch has it, Gloo for CPU ones; a tensor on another device
/// (CUDA without NCCL, the simulator) goes through a host copy.
template <typename Collective>
void collective(const char* what, at::Tensor& flat, Collective&& call) {
  State& s = state();
#ifdef USE_C10D_NCCL
  if (s.nccl && flat.is_cuda()) {
    std::vector<at::Tensor> tensors{flat};
    run(what, call(*s.nccl, tensors));
    return;
  }
#endif
  if (flat.is_cpu()) {
    std::vector<at::Tensor> tensors{flat};
    run(what, call(*s.gloo, tensors));
    return;
  }
  std::vector<at::Tensor> tensors{flat.cpu()};
  run(what, call(*s.gloo, tensors));
  flat.copy_(tensors.front());
}

void allreduce_sum(const char* what, at::Tensor& flat) {
  collective(what, flat, [](auto& group, std::vector<at::Tensor>& tensors) {
    return group.allreduce(tensors);
  });
}

void broadcast_from_main(at::Tensor& flat) {
  collective("broadcast of parameters", flat, [](auto& group, std::vector<at::Tensor>& tensors) {
    c10d::BroadcastOptions options;
    options.rootRank = 0;
    return group.broadcast(tensors, options);
  });
}

/// `tensors` in buckets of at most `bucket_bytes` (buckets.h), each of one
/// dtype and device, in the given order.
std::vector<std::vector<at::Tensor>> buckets(const std::vector<at::Tensor>& tensors,
                                             std::size_t bucket_bytes) {
  std::vector<std::size_t> all(tensors.size());
  for (std::size_t i = 0; i < all.size(); ++i)
    all[i] = i;
  std::vector<std::vector<at::Tensor>> out;
  for (const std::vector<std::size_t>& members : todevice::detail::bucket_indexes(tensors, all, bucket_bytes)) {
    out.emplace_back();
    for (std::size_t i : members)
      out.back().push_back(tensors[i]);
  }
  return out;
}

/// Applies `reduce` to each bucket of `tensors` flattened into one buffer,
/// then writes the buffer back into the tensors.
template <typename Reduce>
void bucketed(const std::vector<at::Tensor>& tensors, Reduce&& reduce) {
  torch::NoGradGuard no_grad;
  for (const std::vector<at::Tensor>& bucket : buckets(tensors, state().options.bucket_bytes)) {
    if (bucket.size() == 1 && bucket.front().is_contiguous()) {
      at::Tensor alone = bucket.front().view(-1);
      reduce(alone);
      continue;
    }
    at::Tensor flat = torch::utils::flatten_dense_tensors(bucket); // a new buffer: not contiguous, or several
    reduce(flat);
    const std::vector<at::Tensor> reduced = torch::utils::unflatten_dense_tensors(flat, bucket);
    for (std::size_t i = 0; i < bucket.size(); ++i)
      bucket[i].copy_(reduced[i]);
  }
}

void average_in_buckets(const std::vector<at::Tensor>& tensors) {
  const double world = state().env.world_size;
  bucketed(tensors, [&](at::Tensor& flat) {
    allreduce_sum("allreduce", flat);
    flat.div_(world);
  });
}

/// The bucket buffer holding the gradients of `parameters`, packed in order.
/// The first time (or after a gradient was replaced: a first backward(),
/// zero_grad(set_to_none)) the gradients are copied into a new buffer and each
/// becomes a tensor over its part of it, as DistributedDataParallel's
/// gradient_as_bucket_view does: backward() then accumulates straight into the
/// buffer and zero_grad() clears it in place, so later steps reduce the buffer
/// with no copy at all. The gradients are made with set_(), not as views,
/// since zero_grad() detaches them in place, which views refuse.
at::Tensor gradient_bucket(const std::vector<at::Tensor>& parameters) {
  const at::Tensor first = parameters.front().grad();
  int64_t offset = 0;
  bool packed = first.storage_offset() == 0;
  for (const at::Tensor& p : parameters) {
    const at::Tensor& g = p.grad();
    packed = packed && g.is_contiguous() && g.storage().is_alias_of(first.storage()) &&
             g.storage_offset() == offset;
    offset += g.numel();
  }
  const int64_t total = offset;
  if (packed && first.storage().nbytes() == static_cast<size_t>(total) * first.element_size())
    return at::empty({0}, first.options()).set_(first.storage(), 0, {total}, {1});

  std::vector<at::Tensor> parts;
  for (const at::Tensor& p : parameters)
    parts.push_back(p.grad().reshape(-1));
  at::Tensor flat = torch::cat(parts);
  offset = 0;
  for (const at::Tensor& p : parameters) {
    at::Tensor& g = p.mutable_grad();
    g = at::empty({0}, flat.options()).set_(flat.storage(), offset, p.sizes(),
                                            c10::contiguous_strides(p.sizes()));
    offset += p.numel();
  }
  return flat;
}

void average_gradients_of(const std::vector<at::Tensor>& parameters) {
  torch::NoGradGuard no_grad;
  std::vector<at::Tensor> with_gradient;
  for (const at::Tensor& p : parameters)
    if (p.grad().defined())
      with_gradient.push_back(p);
  if (with_gradient.empty())
    return;
  const double world = state().env.world_size;
  for (const std::vector<at::Tensor>& bucket : buckets(with_gradient, state().options.bucket_bytes)) {
    at::Tensor flat = gradient_bucket(bucket);
    allreduce_sum("allreduce of gradients", flat);
    flat.div_(world);
  }
}

} // namespace

void join(const Options& options) {
  State& s = state();
  if (s.initialized)
    return;
  s.env = read_environment();
  s.options = options;
  if (s.options.timeout.count() <= 0)
    s.options.timeout = default_timeout();
  if (s.env.world_size == 1)
    return; // a single process: every call is a no-op

  c10d::TCPStoreOptions store_options;
  store_options.port = static_cast<std::uint16_t>(s.env.master_port);
  store_options.isServer = s.env.rank == 0;
  store_options.numWorkers = s.env.world_size;
  store_options.timeout = s.options.timeout;
  compat::use_classic_tcp_store(store_options);
  const std::string where = "MASTER_ADDR:MASTER_PORT=" + s.env.master_addr + ":" +
                            std::to_string(s.env.master_port);
  try {
    QuietLibTorchLog quiet; // its retries and failures come back as one line below
    s.store = c10::make_intrusive<c10d::TCPStore>(s.env.master_addr, store_options);
  } catch (const std::exception& e) {
    throw std::runtime_error("todevice::distributed: rank " + std::to_string(s.env.rank) +
                             (s.env.rank == 0 ? " cannot listen at " : " cannot reach the master at ") +
                             where + " within " + std::to_string(s.options.timeout.count() / 1000) +
                             " s: " + first_line(e.what()));
  }

  auto gloo_options = c10d::ProcessGroupGloo::Options::create(s.options.timeout);
  // All ranks on this machine: talk over loopback; otherwise the interface
  // GLOO_SOCKET_IFNAME names, or the one this host's name resolves to.
  if (s.env.master_addr == "127.0.0.1" || s.env.master_addr == "localhost")
    gloo_options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  else if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME"))
    gloo_options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(ifname));
  else
    gloo_options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  try {
    s.gloo = c10::make_intrusive<c10d::ProcessGroupGloo>(s.store, s.env.rank, s.env.world_size,
                                                         gloo_options);
#ifdef USE_C10D_NCCL
    if (device().is_cuda() && detail::one_gpu_per_process()) {
      auto nccl_options = c10d::ProcessGroupNCCL::Options::create();
      nccl_options->timeout = s.options.timeout;
      s.nccl = c10::make_intrusive<c10d::ProcessGroupNCCL>(
          c10::make_intrusive<c10d::PrefixStore>("nccl", s.store), s.env.rank, s.env.world_size,
          nccl_options);
    }
#endif
  } catch (const std::exception& e) {
    throw std::runtime_error("todevice::distributed: rank " + std::to_string(s.env.rank) +
                             " could not join the process group at " + where + ": " +
                             first_line(e.what()));
  }
  s.initialized = true;
  if (todevice::detail::switched_on("TODEVICE_AUDIT"))
    std::fprintf(stderr, "todevice: rank %d of %d joined: backend %s, device %s\n", s.env.rank,
                 s.env.world_size, backend(), device().str().c_str());
}

bool is_initialized() { return state().initialized; }
int rank() { return state().initialized ? state().env.rank : 0; }
int world_size() { return state().initialized ? state().env.world_size : 1; }
int local_rank() { return state().initialized ? state().env.local_rank : 0; }
bool is_main() { return rank() == 0; }

const char* backend() {
  const State& s = state();
  if (!s.initialized)
    return "none";
#ifdef USE_C10D_NCCL
  if (s.nccl)
    return "nccl";
#endif
  return "gloo";
}

void broadcast_parameters(torch::nn::Module& module) {
  if (!is_initialized())
    return;
  std::vector<at::Tensor> tensors;
  for (const at::Tensor& p : module.parameters())
    tensors.push_back(p);
  for (const at::Tensor& b : module.buffers())
    tensors.push_back(b);
  bucketed(tensors, [](at::Tensor& flat) { broadcast_from_main(flat); });
}

void average_gradients(torch::nn::Module& module) {
  if (is_initialized())
    average_gradients_of(module.parameters());
}

void average_gradients(torch::optim::Optimizer& optimizer) {
  if (!is_initialized())
    return;
  std::vector<at::Tensor> parameters;
  for (const auto& group : optimizer.param_groups())
    for (const at::Tensor& p : group.params())
      parameters.push_back(p);
  average_gradients_of(parameters);
}

void average_tensors(const std::vector<torch::Tensor>& tensors) {
  if (is_initialized())
    average_in_buckets(tensors);
}

void barrier() {
  if (!is_initialized())
    return;
  State& s = state();
  run("barrier", s.gloo->barrier());
}

double average(double value) {
  if (!is_initialized())
    return value;
  at::Tensor t = torch::tensor({value}, torch::kDouble);
  allreduce_sum("allreduce of a value", t);
  return t.item<double>() / world_size();
}

} // namespace distributed
} // namespace todevice
