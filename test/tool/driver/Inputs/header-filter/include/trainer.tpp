// Out-of-line members of a class template, included at the end of its header
// (a .tpp): no includes of its own, so the device declaration goes before the
// first definition, in front of all of its template headers.
template <typename Model>
template <typename Batch>
float Trainer<Model>::fit(Model &model, Batch &batch) {
  return (model->forward(batch) + torch::ones({1})).sum().template item<float>();
}
