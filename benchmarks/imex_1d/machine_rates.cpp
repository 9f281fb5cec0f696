#include "machine_rates.hpp"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace imex_bench {

namespace {
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// Fastest seconds of `run` over repetitions lasting at least min_total in all: a floor is
// what the hardware can do at best, so the best repetition, not the typical one, is
// wanted (other work on the machine only ever slows a repetition down).
template <class F>
double best_seconds(F&& run, double min_total) {
  double best = INFINITY;
  std::size_t count = 0;
  const auto start = clock_type::now();
  while (count++ < 5 || seconds_since(start) < min_total) {
    const auto t0 = clock_type::now();
    run();
    best = std::min(best, seconds_since(t0));
  }
  return best;
}
}  // namespace

double dgemm_flops_per_second(std::size_t n) {
  std::vector<double> a(n * n, 1.0), b(n * n, 0.5), c(n * n, 0.0);
  const int ni = int(n);
  auto gemm = [&] {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, ni, ni, ni, 1.0, a.data(), ni, b.data(),
                ni, 0.0, c.data(), ni);
  };
  gemm();  // warm-up: thread pool, pages
  return 2.0 * double(n) * double(n) * double(n) / best_seconds(gemm, 0.5);
}

double read_bytes_per_second(std::size_t bytes) {
  std::vector<double> v(std::max<std::size_t>(bytes / sizeof(double), 1024), 1.0);
  volatile double sink = 0;
  // Enough passes per timing that the clock's resolution does not matter.
  const std::size_t passes = std::max<std::size_t>(1, (std::size_t(1) << 24) / v.size());
  // 32 independent sums: enough vector add chains (this file is built with -march=native)
  // to keep the load ports, not the add latency, the limit.
  constexpr std::size_t lanes = 32;
  auto sweep = [&] {
    double s[lanes] = {};
    for (std::size_t p = 0; p < passes; ++p)
      for (std::size_t i = 0; i + lanes <= v.size(); i += lanes)
        for (std::size_t l = 0; l < lanes; ++l) s[l] += v[i + l];
    double total = 0;
    for (double x : s) total += x;
    sink = sink + total;
  };
  sweep();
  return double(passes) * double(v.size() * sizeof(double)) / best_seconds(sweep, 0.2);
}

}  // namespace imex_bench
