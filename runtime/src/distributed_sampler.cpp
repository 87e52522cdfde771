// The distributed samplers: a shard of the dataset per rank (LibTorch's
// Distributed*Sampler), or the whole of it when the process is not distributed.
#include "todevice/distributed.h"

namespace todevice {
namespace distributed {

namespace detail {

void ShardSampler::reset(torch::optional<size_t> new_size) { inner_->reset(new_size); }
torch::optional<std::vector<size_t>> ShardSampler::next(size_t batch_size) {
  return inner_->next(batch_size);
}
void ShardSampler::save(torch::serialize::OutputArchive& archive) const { inner_->save(archive); }
void ShardSampler::load(torch::serialize::InputArchive& archive) { inner_->load(archive); }

} // namespace detail

SequentialSampler::SequentialSampler(size_t size) {
  if (is_initialized())
    inner_ = std::make_unique<torch::data::samplers::DistributedSequentialSampler>(
        size, world_size(), rank());
  else
    inner_ = std::make_unique<torch::data::samplers::SequentialSampler>(size);
}

RandomSampler::RandomSampler(size_t size) {
  if (is_initialized()) {
    auto sampler = std::make_unique<torch::data::samplers::DistributedRandomSampler>(
        size, world_size(), rank());
    distributed_ = sampler.get();
    inner_ = std::move(sampler);
  } else {
    inner_ = std::make_unique<torch::data::samplers::RandomSampler>(size);
  }
}

void RandomSampler::reset(torch::optional<size_t> new_size) {
  // The data loader resets its sampler at the start of every pass: a new
  // epoch, hence a new shuffle, the same on every rank (Python's set_epoch).
  if (distributed_)
    distributed_->set_epoch(epoch_++);
  ShardSampler::reset(new_size);
}

} // namespace distributed
} // namespace todevice
