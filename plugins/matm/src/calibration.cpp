#include <solvent_matm/calibration.hpp>

#include <algorithm>
#include <cmath>

namespace solvent::matm {

Stencil7<double> calibration_stencil() {
  Stencil7<double> a(64, 64, 32);
  std::fill(a.c[0].begin(), a.c[0].end(), 6.0);
  for (int q = 1; q <= 6; ++q) std::fill(a.c[q].begin(), a.c[q].end(), 1.0);
  return a;
}

double speed_from_times(std::size_t nodes, std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  const auto at = static_cast<std::size_t>(std::ceil(0.95 * double(seconds.size()))) - 1;
  return double(nodes) / seconds[std::min(at, seconds.size() - 1)];
}

}  // namespace solvent::matm
