#include "todevice/loader.h"

namespace todevice {

void move_batch(torch::Tensor& batch, torch::Device device, bool non_blocking) {
  if (batch.defined())
    batch = batch.to(device, batch.scalar_type(), non_blocking);
}

} // namespace todevice
