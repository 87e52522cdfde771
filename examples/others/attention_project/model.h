#pragma once

#include "tables.h"

struct TinyDecoderImpl : torch::nn::Module {
  TinyDecoderImpl(int64_t vocabulary, int64_t width)
      : embed(register_module("embed", torch::nn::Embedding(vocabulary, width))),
        query(register_module("query", torch::nn::Linear(width, width))),
        key(register_module("key", torch::nn::Linear(width, width))),
        out(register_module("out", torch::nn::Linear(width, vocabulary))) {}

  torch::Tensor forward(torch::Tensor tokens) {
    const int64_t length = tokens.size(1);
    torch::Tensor where = torch::arange(length, torch::kLong);
    torch::Tensor x = embed(tokens) + tables::positions.index_select(0, where);
    torch::Tensor scores = query(x).matmul(key(x).transpose(1, 2)) / std::sqrt(static_cast<double>(x.size(2)));
    torch::Tensor attention = torch::softmax(scores + tables::causalMask(length), -1);
    return out(attention.matmul(x));
  }

  torch::nn::Embedding embed;
  torch::nn::Linear query, key, out;
};
TORCH_MODULE(TinyDecoder);
