#pragma once
// The manufactured solution's spatial part and the velocity fields of the seven-point models
// (grid-equations-3d, transport-3d), on the unit cube. u is not zero on the boundary, so the
// Dirichlet values folded into the right-hand side (box faces and basin shore alike) are
// exercised.
#include <array>
#include <cmath>
#include <numbers>

namespace solvent::seven_point_grid {

using Point = std::array<double, 3>;

// u = sin(pi x) sin(pi y) sin(pi z) + x^2 y + z
inline double exact_u(const Point& p) {
  const double pi = std::numbers::pi;
  return std::sin(pi * p[0]) * std::sin(pi * p[1]) * std::sin(pi * p[2]) + p[0] * p[0] * p[1] +
         p[2];
}

inline Point exact_gradient(const Point& p) {
  const double pi = std::numbers::pi;
  const double sx = std::sin(pi * p[0]), sy = std::sin(pi * p[1]), sz = std::sin(pi * p[2]);
  const double cx = std::cos(pi * p[0]), cy = std::cos(pi * p[1]), cz = std::cos(pi * p[2]);
  return {pi * cx * sy * sz + 2.0 * p[0] * p[1], pi * sx * cy * sz + p[0] * p[0],
          pi * sx * sy * cz + 1.0};
}

inline double exact_laplacian(const Point& p) {
  const double pi = std::numbers::pi;
  return -3.0 * pi * pi * std::sin(pi * p[0]) * std::sin(pi * p[1]) * std::sin(pi * p[2]) +
         2.0 * p[1];
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

// f = -mu lap u + v . grad u for the manufactured u.
inline double source(Velocity kind, double speed, double mu, const Point& p) {
  const Point v = velocity(kind, speed, p);
  const Point g = exact_gradient(p);
  return -mu * exact_laplacian(p) + v[0] * g[0] + v[1] * g[1] + v[2] * g[2];
}

}  // namespace solvent::seven_point_grid
