// A view of pixels owned elsewhere, the way cv::Mat wraps a pointer it is
// handed (host_read_elsewhere.cpp).
#pragma once

class PixelView {
 public:
  PixelView(int rows, int cols, const float* data);
  float sum() const;

 private:
  int rows_, cols_;
  const float* data_;
};
