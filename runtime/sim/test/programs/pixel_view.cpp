#include "pixel_view.h"

PixelView::PixelView(int rows, int cols, const float* data) : rows_(rows), cols_(cols), data_(data) {}

float PixelView::sum() const {
  float total = 0;
  for (int i = 0; i < rows_ * cols_; ++i)
    total += data_[i]; // HOST-READ-HERE
  return total;
}
