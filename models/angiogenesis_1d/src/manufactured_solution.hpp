#pragma once
// The manufactured solution of `mode = "manufactured"`: every species is
//   u_s(x, t) = alpha_s(t) + beta_s(t) cos(k_s pi x),
// whose odd x-derivatives vanish at x = 0 and x = 1, so it satisfies the Neumann ghost
// rows to every order; C = A(t) sin^2(pi x) also vanishes where the TAF gradient does not
// (x = 0), so it satisfies the no-flux condition of the chemotaxis term too. The source
// S = u_t - (Lin u + N(u)), computed from the continuous equations, makes it exact; the
// discrete solution then differs from it by the discretisation error alone.
#include <solvent_family_angiogenesis_1d/coefficients.hpp>

#include <cstddef>

#include <array>
#include <span>
#include <vector>

namespace solvent::angiogenesis_1d {

class ManufacturedSolution {
 public:
  ManufacturedSolution(const Coefficients& k, std::vector<double> x);
  // u = the solution at time t, species-major [C; P; I; F].
  void state(double t, std::span<double> u) const;
  // out += S(x, t).
  void add_source(double t, std::span<double> out) const;

 private:
  struct Value {
    double u, ux, uxx, ut;
  };
  Value species(std::size_t s, double t, std::size_t i) const;

  Coefficients k_;
  std::vector<double> x_;
  // The TAF T, and g = T_x / (1 + a4 T) with its derivative, at every node.
  std::vector<double> taf_, g_, gx_;
};

}  // namespace solvent::angiogenesis_1d
