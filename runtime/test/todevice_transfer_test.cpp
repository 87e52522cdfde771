// The coalescing path (pack -> one copy per bucket -> unpack) and the data-loader
// adapter. Coalescing normally runs only for CPU -> CUDA; Coalesce::Always runs the
// same code here without a GPU (unpinned staging).
#include "todevice/todevice.h"
#include "transfer.h" // internal: batch::plan, pack, unpack

#include <gtest/gtest.h>

namespace {

const torch::Device kMeta(torch::kMeta);

TEST(Batch, PlanGroupsSmallTensorsPerDtypeWithinCapacity) {
  std::vector<torch::Tensor> tensors{
      torch::ones({4}),                  // 0: float, 16 B
      torch::ones({2}, torch::kInt64),   // 1: long, 16 B
      torch::ones({100}),                // 2: float, 400 B -> direct (>= 256)
      torch::ones({8}),                  // 3: float, 32 B
      torch::ones({30}),                 // 4: float, 120 B -> new float bucket (16+32+120 > 128)
      torch::ones({0}),                  // 5: empty -> direct
      torch::ones({3}, torch::TensorOptions().device(kMeta)), // 6: not on the CPU -> direct
  };
  const auto plan = todevice::batch::plan(tensors, /*bucket_bytes=*/128, /*direct_bytes=*/256);
  ASSERT_EQ(plan.buckets.size(), 3u);
  EXPECT_EQ(plan.buckets[0].dtype, torch::kFloat);
  EXPECT_EQ(plan.buckets[0].members, (std::vector<std::size_t>{0, 3}));
  EXPECT_EQ(plan.buckets[0].numel, 12);
  EXPECT_EQ(plan.buckets[1].dtype, torch::kLong);
  EXPECT_EQ(plan.buckets[1].members, (std::vector<std::size_t>{1}));
  EXPECT_EQ(plan.buckets[2].members, (std::vector<std::size_t>{4}));
  EXPECT_EQ(plan.direct, (std::vector<std::size_t>{2, 5, 6}));
}

TEST(Batch, PackThenUnpackRestoresValuesAndShapes) {
  std::vector<torch::Tensor> tensors{
      torch::arange(6, torch::kFloat).view({2, 3}),
      torch::arange(12, torch::kFloat).view({3, 4}).t(), // non-contiguous
      torch::full({1}, 42.0f),
  };
  const auto plan = todevice::batch::plan(tensors, 1 << 20, 1 << 20);
  ASSERT_EQ(plan.buckets.size(), 1u);
  const auto& bucket = plan.buckets[0];
  torch::Tensor flat = torch::full({bucket.numel + 5}, -1.0f); // larger, like a reused buffer
  todevice::batch::pack(tensors, bucket, flat);
  // The "transfer": a copy to a fresh buffer, as the device copy would be.
  const auto parts = todevice::batch::unpack(flat.clone(), tensors, bucket);
  ASSERT_EQ(parts.size(), 3u);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    EXPECT_EQ(parts[i].sizes(), tensors[i].sizes());
    EXPECT_TRUE(parts[i].is_contiguous());
    EXPECT_TRUE(torch::equal(parts[i], tensors[i])) << i;
  }
  EXPECT_EQ(flat[bucket.numel].item<float>(), -1.0f); // nothing written past the bucket
}

TEST(Batch, RegistryCoalescesIntoOneTransferPerBucket) {
  std::vector<torch::Tensor> small;
  for (int i = 0; i < 10; ++i)
    small.push_back(torch::ones({i + 1, 2}));
  torch::Tensor ids = torch::arange(5);           // int64: a bucket of its own
  torch::Tensor large = torch::ones({1024, 1024}); // 4 MiB: direct
  todevice::Registry registry(todevice::TransferOptions{todevice::Coalesce::Always, 1 << 20, 1 << 20});
  registry.add(small, ids, large);
  const auto moved = registry.to(kMeta);
  EXPECT_EQ(moved.transfers, 3u); // float bucket + int64 bucket + the large tensor
  EXPECT_EQ(moved.tensors, 12u);
  EXPECT_EQ(moved.bytes, (55 * 2) * 4u + 5 * 8u + 1024 * 1024 * 4u);
  for (int i = 0; i < 10; ++i) {
    EXPECT_TRUE(small[i].is_meta());
    EXPECT_EQ(small[i].sizes(), torch::IntArrayRef({i + 1, 2}));
  }
  // Each tensor owns its storage: bucket members must not look shared afterwards.
  EXPECT_FALSE(small[0].storage().is_alias_of(small[1].storage()));
  EXPECT_EQ(ids.scalar_type(), torch::kLong);
  EXPECT_TRUE(large.is_meta());

  todevice::Registry per_tensor(todevice::TransferOptions{todevice::Coalesce::Never, 1 << 20, 1 << 20});
  std::vector<torch::Tensor> again(10, torch::Tensor());
  for (auto& t : again)
    t = torch::ones({2});
  per_tensor.add(again);
  EXPECT_EQ(per_tensor.to(kMeta).transfers, 10u);
}

// A tiny dataset: example i is data [i, i] with target i.
class Squares : public torch::data::datasets::Dataset<Squares> {
 public:
  torch::data::Example<> get(size_t index) override {
    const auto i = static_cast<float>(index);
    return {torch::full({2}, i), torch::full({}, i)};
  }
  torch::optional<size_t> size() const override { return 10; }
};

TEST(Loader, StackedBatchesArriveOnTheDevice) {
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      Squares().map(torch::data::transforms::Stack<>()), torch::data::DataLoaderOptions().batch_size(4));
  int batches = 0;
  std::int64_t examples = 0;
  for (auto& batch : todevice::on_device(*loader, kMeta)) {
    EXPECT_TRUE(batch.data.is_meta());
    EXPECT_TRUE(batch.target.is_meta());
    EXPECT_EQ(batch.data.size(1), 2);
    examples += batch.data.size(0);
    ++batches;
  }
  EXPECT_EQ(batches, 3);
  EXPECT_EQ(examples, 10);
}

TEST(Loader, VectorBatchesAndTensorExamplesArriveOnTheDevice) {
  auto loader = torch::data::make_data_loader(Squares(), torch::data::DataLoaderOptions().batch_size(3));
  int batches = 0;
  for (auto& batch : todevice::on_device(*loader, kMeta)) {
    for (auto& example : batch) {
      EXPECT_TRUE(example.data.is_meta());
      EXPECT_TRUE(example.target.is_meta());
    }
    ++batches;
  }
  EXPECT_EQ(batches, 4);

  auto tensors = torch::data::datasets::TensorDataset(torch::ones({6, 2}))
                     .map(torch::data::transforms::Stack<torch::data::TensorExample>());
  auto tensor_loader = torch::data::make_data_loader(std::move(tensors), 2);
  for (auto& batch : todevice::on_device(*tensor_loader, kMeta))
    EXPECT_TRUE(batch.data.is_meta());
}

TEST(Loader, CpuTargetLeavesBatchesAlone) {
  auto loader = torch::data::make_data_loader(Squares().map(torch::data::transforms::Stack<>()), 5);
  for (auto& batch : todevice::on_device(*loader, torch::Device(torch::kCPU))) {
    EXPECT_TRUE(batch.data.device().is_cpu());
    EXPECT_FLOAT_EQ(batch.data[1][0].item<float>(), batch.target[1].item<float>());
  }
}

} // namespace
