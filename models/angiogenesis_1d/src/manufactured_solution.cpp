#include "src/manufactured_solution.hpp"

#include <cmath>
#include <numbers>

namespace solvent::angiogenesis_1d {

namespace {
constexpr std::size_t C = 0, P = 1, I = 2, F = 3;

// alpha, alpha', beta, beta' of each species at time t, and its wave number k.
struct TimeFactors {
  double a, da, b, db;
  int k;
};

TimeFactors time_factors(std::size_t s, double t) {
  switch (s) {
    case C: {  // C = A(t) (1 - cos 2 pi x) / 2, A = 1 + sin(t) / 2
      const double a = 1.0 + 0.5 * std::sin(t), da = 0.5 * std::cos(t);
      return {0.5 * a, 0.5 * da, -0.5 * a, -0.5 * da, 2};
    }
    case P:
      return {0.5, 0.0, 0.25 * std::cos(t), -0.25 * std::sin(t), 1};
    case I:
      return {0.5, 0.0, 0.25 * std::exp(-t), -0.25 * std::exp(-t), 2};
    default:
      return {0.6, 0.0, -0.2 * std::cos(t), 0.2 * std::sin(t), 1};
  }
}
}  // namespace

ManufacturedSolution::ManufacturedSolution(const Coefficients& k, std::vector<double> x)
    : k_(k), x_(std::move(x)) {
  for (double xi : x_) {
    const double s = 1.0 - xi;
    const double t = std::exp(-s * s / k_.eps0);
    const double tx = 2.0 * s / k_.eps0 * t;
    const double txx = t * (-2.0 / k_.eps0 + 4.0 * s * s / (k_.eps0 * k_.eps0));
    const double q = 1.0 + k_.a4 * t;
    taf_.push_back(t);
    g_.push_back(tx / q);
    gx_.push_back(txx / q - k_.a4 * tx * tx / (q * q));
  }
}

ManufacturedSolution::Value ManufacturedSolution::species(std::size_t s, double t,
                                                          std::size_t i) const {
  const auto f = time_factors(s, t);
  const double w = f.k * std::numbers::pi;
  const double c = std::cos(w * x_[i]), sn = std::sin(w * x_[i]);
  return {f.a + f.b * c, -f.b * w * sn, -f.b * w * w * c, f.da + f.db * c};
}

void ManufacturedSolution::state(double t, std::span<double> u) const {
  const std::size_t m = x_.size();
  for (std::size_t s = 0; s < 4; ++s)
    for (std::size_t i = 0; i < m; ++i) u[s * m + i] = species(s, t, i).u;
}

void ManufacturedSolution::add_source(double t, std::span<double> out) const {
  const std::size_t m = x_.size();
  for (std::size_t i = 0; i < m; ++i) {
    const auto c = species(C, t, i), p = species(P, t, i), in = species(I, t, i),
               f = species(F, t, i);
    const double chi_x = k_.a2 * in.ux - k_.a1 * f.ux - k_.a3 * g_[i];
    const double chi_xx = k_.a2 * in.uxx - k_.a1 * f.uxx - k_.a3 * gx_[i];
    const double binding = k_.k3 * p.u * in.u;
    out[C * m + i] +=
        c.ut - (k_.dC * c.uxx + c.ux * chi_x + c.u * chi_xx + k_.k1 * c.u * (1.0 - c.u));
    out[P * m + i] +=
        p.ut - (k_.dP * p.uxx + k_.k4 * taf_[i] * c.u + k_.k5 * taf_[i] - k_.k6 * p.u - binding);
    out[I * m + i] += in.ut - (k_.dI * in.uxx - binding);
    out[F * m + i] += f.ut + k_.k2 * p.u * f.u;
  }
}

}  // namespace solvent::angiogenesis_1d
