#pragma once
// What the sections of the Krylov benchmark share: the test matrices, host timing and
// the device's copy bandwidth (the floor every memory-bound figure is compared with).
#include <solvent/csr_matrix.hpp>
#include <solvent/operator.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace solvent::krylov::bench {

struct TestMatrix {
  std::string name;                    // e.g. "cabin-40"
  std::shared_ptr<const Operator> op;  // holds a CsrMatrix<complex>
  std::vector<complex> rhs;
  const CsrMatrix<complex>& csr() const { return std::get<CsrMatrix<complex>>(*op); }
};

struct Context {
  bool gpu = false;
  double copy_gbs = 0.0;      // measured device-to-device copy bandwidth (read + write)
  double cpu_budget_s = 3.0;  // per CPU solve; longer solves are cut and extrapolated
};

// Median host wall time (ms) of f over at least `reps` runs and at least `min_seconds`.
inline double median_host_ms(const std::function<void()>& f, int reps = 5,
                             double min_seconds = 0.2) {
  f();  // warm-up: first touch of pages, thread pool start
  std::vector<double> ms;
  const auto begin = std::chrono::steady_clock::now();
  while (static_cast<int>(ms.size()) < reps ||
         std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count() <
             min_seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (ms.size() >= 200) break;
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

inline double seconds_of(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void kernel_table(const Context& c, const std::vector<std::size_t>& sizes);
void spmv_table(const Context& c, const std::vector<TestMatrix>& matrices);
void solver_table(const Context& c, const std::vector<TestMatrix>& matrices,
                  const std::vector<std::string>& methods);

}  // namespace solvent::krylov::bench
