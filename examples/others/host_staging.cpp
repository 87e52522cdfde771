// Programs by others, #32: data that host code builds or writes. A trainer
// keeps two staging tensors made once and fills them every step through raw
// pointers (the labels through a cast of a row's data_ptr(), the inputs with
// memcpy and an accessor); a word index is filled one element at a time from
// a vocabulary; a three-float score made with from_blob is only read on the
// host; and examples gathered by hand are stacked into batches.
//
// On a GPU, a .cpu() copy put in front of any of those writes would leave the
// device tensor zero and the program would train on zeros: on the simulator
// that prints other losses than the CPU, which is what the e2e test compares.
// The authors' GPU version copies each step's staging tensors once (2 per
// step), the word index once, each stacked batch once (2 per batch) and each
// parameter once.
#include <torch/torch.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

struct Example {
  torch::Tensor features, label;
};

// Host code fills the staging tensors; the model reads them.
class StagingTrainer {
public:
  StagingTrainer(int64_t batch, int64_t width)
      : inputs(torch::zeros({batch, width})), labels(torch::zeros({batch, 1})) {}

  void fill(int step) {
    const int64_t batch = inputs.size(0), width = inputs.size(1);
    std::vector<float> row(width);
    auto in = inputs.accessor<float, 2>();
    for (int64_t i = 0; i < batch; ++i) {
      for (int64_t j = 0; j < width; ++j)
        row[j] = static_cast<float>(((step + 1) * (i + 2) * (j + 3)) % 11) / 11.0f;
      std::memcpy(inputs[i].data_ptr<float>(), row.data(), width * sizeof(float));
      in[i][0] = static_cast<float>(step % 3);
      float *label = (float *)labels[i].data_ptr();
      label[0] = row[1] > 0.5f ? 1.0f : 0.0f;
    }
  }

  torch::Tensor inputs, labels;
};

std::map<std::string, int64_t> buildVocabulary(const std::vector<std::string> &words) {
  std::map<std::string, int64_t> vocabulary;
  for (const std::string &word : words)
    vocabulary.emplace(word, static_cast<int64_t>(vocabulary.size()));
  return vocabulary;
}

int main() {
  torch::manual_seed(0);
  const int64_t width = 6, batch = 4;
  torch::nn::Sequential model(torch::nn::Linear(width, 8), torch::nn::ReLU(),
                              torch::nn::Linear(8, 1));
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));

  StagingTrainer trainer(batch, width);
  for (int step = 0; step < 6; ++step) {
    trainer.fill(step);
    optimizer.zero_grad();
    torch::Tensor loss = torch::binary_cross_entropy_with_logits(model->forward(trainer.inputs),
                                                                 trainer.labels);
    loss.backward();
    optimizer.step();
    std::printf("staging step %d loss %.6f\n", step, loss.item<float>());
  }

  // A word index filled element by element, then embedded.
  const std::vector<std::string> sentence = {"the", "cat", "sat", "on", "the", "mat"};
  const std::map<std::string, int64_t> vocabulary = buildVocabulary(sentence);
  torch::Tensor index = torch::zeros({static_cast<int64_t>(sentence.size())}, torch::kLong);
  for (size_t i = 0; i < sentence.size(); ++i)
    index[i] = vocabulary.at(sentence[i]);
  torch::nn::Embedding embedding(static_cast<int64_t>(vocabulary.size()), 3);
  std::printf("embedded sum %.6f\n", embedding->forward(index).sum().item<float>());

  // Three scores read only on the host.
  float scores[3] = {0.2f, 0.7f, 0.1f};
  torch::Tensor score = torch::from_blob(scores, {3});
  std::printf("best class %d\n", static_cast<int>(score.argmax().item<int64_t>()));

  // Examples gathered by hand and stacked into batches.
  std::vector<Example> examples;
  for (int i = 0; i < 8; ++i)
    examples.push_back({torch::full({width}, 0.1 * i), torch::full({1}, i % 2 ? 1.0 : 0.0)});
  for (size_t start = 0; start < examples.size(); start += batch) {
    std::vector<torch::Tensor> features, labels;
    for (size_t k = start; k < start + batch; ++k) {
      features.push_back(examples[k].features);
      labels.push_back(examples[k].label);
    }
    torch::Tensor logits = model->forward(torch::stack(features));
    torch::Tensor loss = torch::binary_cross_entropy_with_logits(logits, torch::stack(labels));
    std::printf("batch %zu loss %.6f\n", start / batch, loss.item<float>());
  }
  return 0;
}
