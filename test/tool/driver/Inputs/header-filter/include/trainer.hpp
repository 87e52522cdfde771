#pragma once

template <typename Model> struct Trainer {
  template <typename Batch> float fit(Model &model, Batch &batch);
};

#include "trainer.tpp"
