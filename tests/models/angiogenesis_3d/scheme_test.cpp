// The shared maths of the scheme (headers of the model): consistency of P0..P6 with the
// PDE for n at second order (they are its discretisation, read as the tips' movement
// probabilities), a uniform state, the step limit P0 >= 0, the count of coefficients that
// are no probabilities, the movement and branching rules, and the counter-based random
// numbers.
#include <solvent_family_angiogenesis_3d/coefficients.hpp>
#include <solvent_family_angiogenesis_3d/counter_rng.hpp>
#include <solvent_family_angiogenesis_3d/tip_rules.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <set>

using namespace solvent::angiogenesis_3d;

namespace {

Parameters model_defaults() {
  Parameters p{};
  p.D = 0.00035;
  p.chi0 = 0.38;
  p.alpha = 0.6;
  p.rho = 0.34;
  p.c_threshold[0] = 0.25;
  p.c_threshold[1] = 0.45;
  p.c_threshold[2] = 0.6;
  p.c_threshold[3] = 0.68;
  const double prob[5] = {0.0, 0.2, 0.3, 0.4, 1.0};
  for (int b = 0; b < 5; ++b) p.branch_probability[b] = prob[b];
  return p;
}

// n = e^s, c = 0.5 + 0.25 s, f = 0.3 s^2 along one axis s; constant along the others.
double n_of(double s) { return std::exp(s); }
double c_of(double s) { return 0.5 + 0.25 * s; }
double f_of(double s) { return 0.3 * s * s; }

// D n'' - (chi(c) n c')' - rho (n f')' at s.
double exact_rate(const Parameters& p, double s) {
  const double c = c_of(s), dc = 0.25, n = n_of(s);
  const double chi = p.chi0 / (1.0 + p.alpha * c);
  const double dchi = -p.chi0 * p.alpha / ((1.0 + p.alpha * c) * (1.0 + p.alpha * c));
  const double chemotaxis = dc * (dchi * dc * n + chi * n);
  const double haptotaxis = n * (0.6 * s + 0.6);
  return p.D * n - chemotaxis - p.rho * haptotaxis;
}

// The forward-Euler value of n from the coefficients: what the coefficients would give a
// continuous density (the integrator advances none; see docs/models/angiogenesis-3d.md).
double weighted(const Coefficients& k, const Stencil& n) {
  return k.P[0] * n.v[0] + k.P[1] * n.v[2] + k.P[2] * n.v[1] + k.P[3] * n.v[4] + k.P[4] * n.v[3] +
         k.P[5] * n.v[6] + k.P[6] * n.v[5];
}

// (n' - n) / k on the stencil at s, with the profile along `axis` (0, 1, 2).
double discrete_rate(const Parameters& p, double s, double h, int axis) {
  auto fill = [&](double (*fn)(double)) {
    Stencil st;
    for (int q = 0; q < 7; ++q) st.v[q] = fn(s);
    st.v[1 + 2 * axis] = fn(s - h);
    st.v[2 + 2 * axis] = fn(s + h);
    return st;
  };
  Parameters ph = p;
  ph.h = h;
  const double k = 1.0;
  const auto coeff = coefficients(scheme_constants(ph, k), fill(c_of), fill(f_of));
  return (weighted(coeff, fill(n_of)) - n_of(s)) / k;
}

}  // namespace

TEST_CASE("P0..P6 are consistent with the PDE for n at second order, on every axis") {
  const Parameters p = model_defaults();
  const double s = 0.4;
  double err[3];
  const double h[3] = {0.04, 0.02, 0.01};
  for (int l = 0; l < 3; ++l) err[l] = std::abs(discrete_rate(p, s, h[l], 0) - exact_rate(p, s));
  const double order1 = std::log2(err[0] / err[1]);
  const double order2 = std::log2(err[1] / err[2]);
  CHECK(order1 == doctest::Approx(2.0).epsilon(0.05));
  CHECK(order2 == doctest::Approx(2.0).epsilon(0.05));
  for (int axis = 1; axis < 3; ++axis)
    CHECK(discrete_rate(p, s, 0.01, axis) ==
          doctest::Approx(discrete_rate(p, s, 0.01, 0)).epsilon(1e-9));
}

TEST_CASE("a uniform state stays uniform and the coefficients sum to one") {
  Parameters p = model_defaults();
  p.h = 0.01;
  Stencil c, f, n;
  for (int q = 0; q < 7; ++q) {
    c.v[q] = 0.7;
    f.v[q] = 0.3;
    n.v[q] = 0.25;
  }
  const auto coeff = coefficients(scheme_constants(p, 0.001), c, f);
  double sum = 0.0;
  for (double v : coeff.P) sum += v;
  CHECK(sum == doctest::Approx(1.0).epsilon(1e-14));
  CHECK(weighted(coeff, n) == doctest::Approx(0.25).epsilon(1e-14));
  CHECK(invalid_probabilities(coeff) == 0);
  // Pure diffusion: P0 >= 0 up to k = h^2 / (6 D).
  CHECK(centre_step_limit(p, c, f) == doctest::Approx(0.01 * 0.01 / (6 * p.D)));
  const auto beyond = coefficients(scheme_constants(p, 1.01 * centre_step_limit(p, c, f)), c, f);
  CHECK(beyond.P[0] < 0.0);
  CHECK(invalid_probabilities(beyond) == 1);
}

TEST_CASE("a TAF gradient along +x favours moving to +x") {
  Parameters p = model_defaults();
  p.h = 0.01;
  Stencil c, f;
  for (int q = 0; q < 7; ++q) {
    c.v[q] = 0.5;
    f.v[q] = 0.0;
  }
  c.v[1] = 0.49;  // x - h
  c.v[2] = 0.51;  // x + h
  const auto coeff = coefficients(scheme_constants(p, 0.001), c, f);
  CHECK(coeff.P[2] > coeff.P[1]);  // P2 (to +x) > P1 (to -x)
  CHECK(coeff.P[3] == coeff.P[4]);
  // Taxis outweighs diffusion here (chi |dc/dx| h / 2 > D): P1, the weight of moving down
  // the gradient, is negative whatever k, and counted as no probability.
  CHECK(coeff.P[1] < 0.0);
  CHECK(invalid_probabilities(coeff) == 1);
}

TEST_CASE("movement: negative weights are clipped, the rest renormalised") {
  Coefficients k{{0.5, -1.0, 0.5, 0.0, 0.0, 0.0, 0.0}};
  CHECK(choose_direction(k, 0.0) == 0);
  CHECK(choose_direction(k, 0.49) == 0);
  CHECK(choose_direction(k, 0.51) == 2);
  CHECK(choose_direction(k, 0.999) == 2);
  Coefficients none{{-1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0}};
  CHECK(choose_direction(none, 0.3) == 0);
  Coefficients even{{1, 1, 1, 1, 1, 1, 1}};
  std::set<int> seen;
  for (int q = 0; q < 7; ++q) seen.insert(choose_direction(even, (q + 0.5) / 7.0));
  CHECK(seen.size() == 7);
}

TEST_CASE("branching probability follows the table of c") {
  const Parameters p = model_defaults();
  CHECK(branch_probability(p, 0.1) == 0.0);
  CHECK(branch_probability(p, 0.3) == 0.2);
  CHECK(branch_probability(p, 0.5) == 0.3);
  CHECK(branch_probability(p, 0.65) == 0.4);
  CHECK(branch_probability(p, 0.68) == 1.0);
  CHECK(branch_probability(p, 0.9) == 1.0);
}

TEST_CASE("counter-based uniforms: a pure function of the key, uniform on [0, 1)") {
  CHECK(uniform(42, 10, 3, Draw::Move) == uniform(42, 10, 3, Draw::Move));
  CHECK(uniform(42, 10, 3, Draw::Move) != uniform(42, 10, 3, Draw::Branch));
  CHECK(uniform(42, 10, 3, Draw::Move) != uniform(42, 11, 3, Draw::Move));
  CHECK(uniform(42, 10, 3, Draw::Move) != uniform(43, 10, 3, Draw::Move));
  double sum = 0.0, lo = 1.0, hi = 0.0;
  const int n = 100000;
  for (int q = 0; q < n; ++q) {
    const double u = uniform(1, q / 100, q % 100, Draw::Move);
    sum += u;
    lo = std::min(lo, u);
    hi = std::max(hi, u);
  }
  CHECK(lo >= 0.0);
  CHECK(hi < 1.0);
  CHECK(sum / n == doctest::Approx(0.5).epsilon(0.01));
}
