// A rank that averages a value at every step and says so, for the failure
// tests: a rank killed mid-training, and bad launcher variables.
#include <todevice/distributed.h>

#include <chrono>
#include <cstdio>
#include <thread>

int main(int argc, char **argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 100;
  todevice::distributed::init();
  for (int step = 0; step < steps; ++step) {
    double mean = todevice::distributed::average(todevice::distributed::rank() + step);
    std::printf("step %d mean %.1f\n", step, mean);
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}
