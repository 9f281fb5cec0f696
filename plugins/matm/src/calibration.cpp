#include <solvent_matm/calibration.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace solvent::matm {

Stencil7<double> calibration_stencil(std::size_t n1, std::size_t n2, std::size_t n3) {
  Stencil7<double> a(n1, n2, n3);
  std::fill(a.c[0].begin(), a.c[0].end(), 6.0);
  for (int q = 1; q <= 6; ++q) std::fill(a.c[q].begin(), a.c[q].end(), 1.0);
  return a;
}

double speed_from_times(std::size_t nodes, std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  const auto at = static_cast<std::size_t>(std::ceil(0.95 * double(seconds.size()))) - 1;
  return double(nodes) / seconds[std::min(at, seconds.size() - 1)];
}

double time_corrections(MatmBackend& backend, std::size_t nodes) {
  backend.update_and_residual(0.0);
  std::vector<double> seconds;
  for (int k = 0; k < calibration_repeats; ++k) {
    const auto start = std::chrono::steady_clock::now();
    backend.correction(1.0);
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return speed_from_times(nodes, seconds);
}

}  // namespace solvent::matm
