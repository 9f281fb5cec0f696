// The whole scheme against a direct, unoptimised re-implementation written here from the
// formulas of docs/models/angiogenesis-1d.md: dense difference,
// averaging and divergence matrices, dense Lin, textbook Gaussian elimination. Nothing is
// shared with the plugins but the formulas.
#include "imex_run.hpp"

#include <solvent_test/quoted_figures.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

using namespace angio1d_test;

namespace {

using Matrix = std::vector<std::vector<double>>;
using Vec = std::vector<double>;

Matrix zeros(std::size_t r, std::size_t c) { return Matrix(r, Vec(c, 0.0)); }

Vec times(const Matrix& a, const Vec& x) {
  Vec y(a.size(), 0.0);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < x.size(); ++j) y[i] += a[i][j] * x[j];
  return y;
}

Vec gauss_solve(Matrix a, Vec b) {
  const std::size_t n = b.size();
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < n; ++i)
      if (std::abs(a[i][k]) > std::abs(a[p][k])) p = i;
    std::swap(a[k], a[p]);
    std::swap(b[k], b[p]);
    for (std::size_t i = k + 1; i < n; ++i) {
      const double l = a[i][k] / a[k][k];
      for (std::size_t j = k; j < n; ++j) a[i][j] -= l * a[k][j];
      b[i] -= l * b[k];
    }
  }
  Vec x(n);
  for (std::size_t i = n; i-- > 0;) {
    double s = b[i];
    for (std::size_t j = i + 1; j < n; ++j) s -= a[i][j] * x[j];
    x[i] = s / a[i][i];
  }
  return x;
}

struct Coefficients {
  double dC, dP, dI, k1, k2, k3, k4, k5, k6, a1, a2, a3, a4, eps0;
};
// docs/models/angiogenesis-1d.md, written out again on purpose.
constexpr Coefficients julia{0.1, 0.1, 0.1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0.1};
constexpr Coefficients second{0.001, 0.005, 0.005, 0.1, 0.1, 0.1, 0.1,
                              0.05,  0.05,  0.1,   0.1, 0.2, 1,   0.1};

class ReferenceScheme {
 public:
  ReferenceScheme(std::size_t m, Coefficients k) : m_(m), h_(1.0 / double(m - 1)), k_(k) {
    for (std::size_t i = 0; i < m; ++i) {
      const double x = double(i) * h_;
      taf_.push_back(std::exp(-(1 - x) * (1 - x) / k.eps0));
    }
    const double ih2 = 1 / (h_ * h_);
    d2_ = zeros(m, m);
    for (std::size_t i = 1; i + 1 < m; ++i) {
      d2_[i][i - 1] = ih2;
      d2_[i][i] = -2 * ih2;
      d2_[i][i + 1] = ih2;
    }
    d2_[0][0] = -2 * ih2, d2_[0][1] = 2 * ih2;
    d2_[m - 1][m - 2] = 2 * ih2, d2_[m - 1][m - 1] = -2 * ih2;
    // Midpoint difference and average (M-1 x M); divergence with ghost fluxes J_{-1/2} =
    // -J_{1/2}, J_{M-1/2} = -J_{M-3/2} (M x M-1).
    grad_ = zeros(m - 1, m), mean_ = zeros(m - 1, m), div_ = zeros(m, m - 1);
    for (std::size_t i = 0; i + 1 < m; ++i) {
      grad_[i][i] = -1 / h_, grad_[i][i + 1] = 1 / h_;
      mean_[i][i] = 0.5, mean_[i][i + 1] = 0.5;
    }
    div_[0][0] = 2 / h_;
    for (std::size_t i = 1; i + 1 < m; ++i) div_[i][i - 1] = -1 / h_, div_[i][i] = 1 / h_;
    div_[m - 1][m - 2] = -2 / h_;
    lin_ = zeros(4 * m, 4 * m);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < m; ++j) {
        lin_[i][j] = k.dC * d2_[i][j];
        lin_[m + i][m + j] = k.dP * d2_[i][j] - (i == j ? k.k6 : 0.0);
        lin_[2 * m + i][2 * m + j] = k.dI * d2_[i][j];
      }
    for (std::size_t i = 0; i < m; ++i) lin_[m + i][i] = k.k4 * taf_[i];
  }

  Vec initial() const {
    Vec u(4 * m_, 0.05);
    for (std::size_t i = 0; i < m_; ++i) u[i] = double(i) * h_ < 0.1 ? 1.0 : 0.0;
    return u;
  }

  Vec nonlinear(const Vec& u) const {
    const Vec c(u.begin(), u.begin() + m_), p(u.begin() + m_, u.begin() + 2 * m_),
        in(u.begin() + 2 * m_, u.begin() + 3 * m_), f(u.begin() + 3 * m_, u.end());
    const Vec gi = times(grad_, in), gf = times(grad_, f), gt = times(grad_, taf_),
              mt = times(mean_, taf_), mc = times(mean_, c);
    Vec flux(m_ - 1);
    for (std::size_t i = 0; i + 1 < m_; ++i)
      flux[i] = mc[i] * (k_.a2 * gi[i] - k_.a1 * gf[i] - k_.a3 * gt[i] / (1 + k_.a4 * mt[i]));
    const Vec taxis = times(div_, flux);
    Vec n(4 * m_);
    for (std::size_t i = 0; i < m_; ++i) {
      n[i] = taxis[i] + k_.k1 * c[i] * (1 - c[i]);
      n[m_ + i] = k_.k5 * taf_[i] - k_.k3 * p[i] * in[i];
      n[2 * m_ + i] = -k_.k3 * p[i] * in[i];
      n[3 * m_ + i] = -k_.k2 * p[i] * f[i];
    }
    return n;
  }

  // (I - dt/2 Lin) u+ = (I + dt/2 Lin) u + dt E, then max(u+, 0).
  std::vector<Vec> run(double dt, int steps, bool adams_bashforth) const {
    const std::size_t n = 4 * m_;
    Matrix lhs = zeros(n, n), rhs_op = zeros(n, n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        lhs[i][j] = (i == j) - dt / 2 * lin_[i][j];
        rhs_op[i][j] = (i == j) + dt / 2 * lin_[i][j];
      }
    std::vector<Vec> states{initial()};
    Vec previous_n;
    for (int s = 0; s < steps; ++s) {
      const Vec& u = states.back();
      const Vec nn = nonlinear(u);
      Vec b = times(rhs_op, u);
      for (std::size_t i = 0; i < n; ++i)
        b[i] += dt * (adams_bashforth && s > 0 ? 1.5 * nn[i] - 0.5 * previous_n[i] : nn[i]);
      Vec next = gauss_solve(lhs, b);
      for (auto& v : next) v = std::max(v, 0.0);
      states.push_back(next);
      previous_n = nn;
    }
    return states;
  }

  double mass_c(const Vec& u) const {
    double s = 0;
    for (std::size_t i = 0; i < m_; ++i) s += (i == 0 || i == m_ - 1 ? 0.5 : 1.0) * u[i] * h_;
    return s;
  }

 private:
  std::size_t m_;
  double h_;
  Coefficients k_;
  Vec taf_;
  Matrix d2_, grad_, mean_, div_, lin_;
};

}  // namespace

TEST_CASE("the scheme equals an independent dense re-implementation to round-off") {
  constexpr std::int64_t m = 9, steps = 6;
  constexpr double dt = 0.01;
  for (const auto& [set, coefficients] :
       {std::pair{std::string("julia"), julia}, std::pair{std::string("second"), second}})
    for (const std::string integrator : {"imex-trapezoid", "imex-cnab2"}) {
      const ReferenceScheme scheme(m, coefficients);
      const auto reference = scheme.run(dt, steps, integrator == "imex-cnab2");
      for (const std::string solver : {"gepp-cpu", "banded"}) {
        CAPTURE(set);
        CAPTURE(integrator);
        CAPTURE(solver);
        RunSpec spec;
        spec.model = {{"M", m}, {"parameter_set", set}};
        spec.integrator = integrator;
        spec.integrator_settings = {{"dt", dt}, {"steps", steps}};
        spec.solver = solver;
        const auto traj = run(spec);
        REQUIRE(traj.states.size() == reference.size());
        double worst = 0, worst_mass = 0;
        for (std::size_t k = 0; k < reference.size(); ++k) {
          worst = std::max(worst, relative_difference(traj.states[k], reference[k]));
          const double mass = scheme.mass_c(reference[k]);
          worst_mass = std::max(worst_mass, std::abs(traj.observable(k, "mass_C") - mass) / mass);
        }
        MESSAGE(set << ", " << integrator << ", " << solver << ": max relative difference " << worst
                    << ", mass of C " << worst_mass);
        CHECK(worst_mass < 1e-13);
        // The bound the model's table of evidence states.
        solvent::test::check_quoted_bound(MODEL_DOC, "max relative difference below ", worst);
      }
    }
}
