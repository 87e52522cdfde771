// In the shape of book chapters and language-model repositories (#23, class
// 6: copies): a loader that turns token rows into tensors one row at a time
// and stacks them per batch; tensor options kept by a settings class behind a
// static getter; and inference on an "image" copied from host memory and
// normalized by a transform before the model sees it. Its authors' GPU
// version copies each batch once (not each row), builds the model's state on
// the device, and copies each image once, after normalizing it.
#include <torch/torch.h>

#include <iostream>
#include <vector>

class Settings {
public:
  static void init() { options = options.dtype(torch::kFloat32).requires_grad(false); }
  static const torch::TensorOptions &getOptions() { return options; }

private:
  static torch::TensorOptions options;
};
torch::TensorOptions Settings::options = torch::TensorOptions();

struct Batch {
  torch::Tensor input, target;
};

class TokenLoader {
public:
  TokenLoader(const std::vector<int64_t> &tokens, int64_t context, int64_t batchSize) {
    std::vector<std::vector<int64_t>> inputs, targets;
    for (size_t start = 0; start + context + 1 <= tokens.size(); start += context) {
      inputs.emplace_back(tokens.begin() + start, tokens.begin() + start + context);
      targets.emplace_back(tokens.begin() + start + 1, tokens.begin() + start + context + 1);
    }
    for (size_t b = 0; b + batchSize <= inputs.size(); b += batchSize) {
      std::vector<torch::Tensor> in, out;
      for (size_t k = b; k < b + batchSize; ++k) {
        in.push_back(torch::tensor(inputs[k], torch::kLong));
        out.push_back(torch::tensor(targets[k], torch::kLong));
      }
      batches_.push_back({torch::stack(in), torch::stack(out)});
    }
  }
  const std::vector<Batch> &batches() const { return batches_; }

private:
  std::vector<Batch> batches_;
};

struct TinyLMImpl : torch::nn::Module {
  TinyLMImpl(int64_t vocab, int64_t dim)
      : embed(register_module("embed", torch::nn::Embedding(vocab, dim))),
        head(register_module("head", torch::nn::Linear(dim, vocab))) {
    // The attention-free "memory": a running state the model adds to its input.
    state = register_buffer("state", torch::zeros({dim}, Settings::getOptions()));
  }
  torch::Tensor forward(const torch::Tensor &tokens) {
    auto positions = torch::arange(tokens.size(1), tokens.options()).unsqueeze(0);
    auto h = embed->forward(tokens) + embed->forward(positions % embed->options.num_embeddings()) + state;
    return head->forward(torch::tanh(h));
  }
  torch::nn::Embedding embed;
  torch::nn::Linear head;
  torch::Tensor state;
};
TORCH_MODULE(TinyLM);

int main() {
  torch::manual_seed(0);
  Settings::init();
  std::vector<int64_t> tokens;
  for (int64_t i = 0; i < 200; ++i)
    tokens.push_back((i * 7 + i / 5) % 16);
  TokenLoader loader(tokens, 8, 4);

  TinyLM model(16, 12);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (int epoch = 0; epoch < 3; ++epoch) {
    double total = 0;
    for (const Batch &batch : loader.batches()) {
      auto logits = model->forward(batch.input);
      auto loss = torch::nn::functional::cross_entropy(logits.reshape({-1, 16}), batch.target.reshape({-1}));
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
      total += loss.item<double>();
    }
    std::cout << "epoch " << epoch << " loss " << total / loader.batches().size() << "\n";
  }

  // Inference on pixel rows from host memory (a camera frame, an OpenCV image).
  torch::NoGradGuard noGrad;
  torch::nn::Linear classifier(3 * 2 * 2, 2);
  std::vector<uint8_t> frame(12);
  for (int shot = 0; shot < 3; ++shot) {
    for (size_t i = 0; i < frame.size(); ++i)
      frame[i] = static_cast<uint8_t>((i * 20 + shot * 50) % 256);
    auto image = torch::from_blob(frame.data(), {2, 2, 3}, torch::kByte).clone();
    image = image.permute({2, 0, 1}).to(torch::kFloat).div(255);
    image = torch::data::transforms::Normalize<>({0.5, 0.5, 0.5}, {0.5, 0.5, 0.5})(image);
    auto scores = classifier->forward(image.reshape({1, -1}));
    std::cout << "shot " << shot << " class " << scores.argmax(1).item<int64_t>() << "\n";
  }
}
