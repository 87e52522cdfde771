// Uses the runtime without including <todevice/todevice.h>.
#include <torch/torch.h>

const torch::Device device(todevice::default_device());

int main() { return torch::ones({1}, torch::device(device)).numel() == 1 ? 0 : 1; }
