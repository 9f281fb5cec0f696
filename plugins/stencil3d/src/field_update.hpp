#pragma once
// The continuous part of one step, per node: the forward-Euler value of n, and the update
// of f and c on a vessel node (n = 1 there).
#include <solvent_family_angiogenesis_3d/coefficients.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>

#include <cstdint>

namespace solvent::stencil3d {

using solvent::angiogenesis_3d::Grid;

SOLVENT_HD inline solvent::angiogenesis_3d::Stencil gather(
    const double* v, const solvent::angiogenesis_3d::Neighbours& nb) {
  return {{v[nb.m[0]], v[nb.m[1]], v[nb.m[2]], v[nb.m[3]], v[nb.m[4]], v[nb.m[5]], v[nb.m[6]]}};
}

SOLVENT_HD inline double density_at(const solvent::angiogenesis_3d::SchemeConstants& s,
                                    const Grid& g, const double* n, const double* f,
                                    const double* c, std::int32_t i, std::int32_t j,
                                    std::int32_t k) {
  const auto nb = solvent::angiogenesis_3d::neighbours(g, i, j, k);
  const auto coeff = solvent::angiogenesis_3d::coefficients(s, gather(c, nb), gather(f, nb));
  return solvent::angiogenesis_3d::updated_density(coeff, gather(n, nb));
}

// f <- f (1 - k gamma) + k beta, c <- c (1 - k eta) on a vessel node.
struct VesselUptake {
  double f_keep, f_gain, c_keep;
};

SOLVENT_HD inline void take_up(const VesselUptake& u, double& f, double& c) {
  f = f * u.f_keep + u.f_gain;
  c = c * u.c_keep;
}

}  // namespace solvent::stencil3d
