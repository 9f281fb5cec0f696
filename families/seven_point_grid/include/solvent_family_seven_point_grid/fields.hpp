#pragma once
// The manufactured solution's spatial part and the velocity fields of the seven-point models
// (grid-equations-3d, transport-3d), on the unit cube. u is not zero on the boundary, so the
// Dirichlet values folded into the right-hand side (box faces and basin shore alike) are
// exercised.
#include <array>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <vector>

namespace solvent::seven_point_grid {

using Point = std::array<double, 3>;

// sin(pi p_d) and cos(pi p_d) of a point's coordinates: all the manufactured solution takes
// from transcendental functions.
struct Trig {
  double s[3], c[3];
};

inline Trig trig_at(const Point& p) {
  const double pi = std::numbers::pi;
  Trig t;
  for (int d = 0; d < 3; ++d) {
    t.s[d] = std::sin(pi * p[d]);
    t.c[d] = std::cos(pi * p[d]);
  }
  return t;
}

// The sines and cosines at the nodes of a grid of spacing h, per axis, each as trig_at
// computes it for the node's point (i h_1, j h_2, k h_3): an assembly takes them from here
// instead of calling 15 sines and cosines a node (a third to a half of a large grid's
// assembly, docs/scaling.md), and gets the same bits.
class TrigTable {
 public:
  TrigTable(const std::array<std::size_t, 3>& nodes, const Point& h) {
    const double pi = std::numbers::pi;
    for (int d = 0; d < 3; ++d)
      for (std::size_t i = 0; i < nodes[static_cast<std::size_t>(d)]; ++i) {
        s_[d].push_back(std::sin(pi * (static_cast<double>(i) * h[d])));
        c_[d].push_back(std::cos(pi * (static_cast<double>(i) * h[d])));
      }
  }
  Trig at(const std::array<std::size_t, 3>& node) const {
    Trig t;
    for (int d = 0; d < 3; ++d) {
      t.s[d] = s_[d][node[static_cast<std::size_t>(d)]];
      t.c[d] = c_[d][node[static_cast<std::size_t>(d)]];
    }
    return t;
  }

 private:
  std::vector<double> s_[3], c_[3];
};

// u = sin(pi x) sin(pi y) sin(pi z) + x^2 y + z, with t = trig_at(p).
inline double exact_u(const Point& p, const Trig& t) {
  return t.s[0] * t.s[1] * t.s[2] + p[0] * p[0] * p[1] + p[2];
}
inline double exact_u(const Point& p) { return exact_u(p, trig_at(p)); }

inline Point exact_gradient(const Point& p, const Trig& t) {
  const double pi = std::numbers::pi;
  return {pi * t.c[0] * t.s[1] * t.s[2] + 2.0 * p[0] * p[1],
          pi * t.s[0] * t.c[1] * t.s[2] + p[0] * p[0], pi * t.s[0] * t.s[1] * t.c[2] + 1.0};
}

inline double exact_laplacian(const Point& p, const Trig& t) {
  const double pi = std::numbers::pi;
  return -3.0 * pi * pi * t.s[0] * t.s[1] * t.s[2] + 2.0 * p[1];
}

enum class Velocity { None, Uniform, Shear, Rotating };

// Divergence-free fields whose largest speed on the cube is `speed`.
inline Point velocity(Velocity kind, double speed, const Point& p) {
  switch (kind) {
    case Velocity::None:
      return {0.0, 0.0, 0.0};
    case Velocity::Uniform: {
      const double c = speed / std::sqrt(3.0);
      return {c, c, c};
    }
    case Velocity::Shear:
      return {speed * (2.0 * p[2] - 1.0), 0.0, 0.0};
    case Velocity::Rotating: {
      const double c = speed * std::sqrt(2.0);
      return {c * (0.5 - p[1]), c * (p[0] - 0.5), 0.0};
    }
  }
  return {0.0, 0.0, 0.0};
}

// f = -mu lap u + v . grad u for the manufactured u, with t = trig_at(p).
inline double source(Velocity kind, double speed, double mu, const Point& p, const Trig& t) {
  const Point v = velocity(kind, speed, p);
  const Point g = exact_gradient(p, t);
  return -mu * exact_laplacian(p, t) + v[0] * g[0] + v[1] * g[1] + v[2] * g[2];
}

}  // namespace solvent::seven_point_grid
