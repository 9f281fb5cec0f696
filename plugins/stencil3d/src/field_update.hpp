#pragma once
// The continuous part of one step: f and c change on vessel nodes (n = 1 there) only.
// gather() reads a field's stencil for the host-side step limit.
#include <solvent_stencil3d/box.hpp>

#include <solvent_family_angiogenesis_3d/coefficients.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>

namespace solvent::stencil3d {

SOLVENT_HD inline solvent::angiogenesis_3d::Stencil gather(
    const double* v, const solvent::angiogenesis_3d::Neighbours& nb) {
  return {{v[nb.m[0]], v[nb.m[1]], v[nb.m[2]], v[nb.m[3]], v[nb.m[4]], v[nb.m[5]], v[nb.m[6]]}};
}

// f <- f (1 - k gamma) + k beta, c <- c (1 - k eta) on a vessel node.
struct VesselUptake {
  double f_keep, f_gain, c_keep;
};

SOLVENT_HD inline void take_up(const VesselUptake& u, double& f, double& c) {
  f = f * u.f_keep + u.f_gain;
  c = c * u.c_keep;
}

// The uptake at vessel node m (a global index) where the window holds it: every rank
// updates the vessel nodes of its whole window, ghosts included, so that its copies of
// the neighbours' nodes stay equal to theirs without an exchange.
SOLVENT_HD inline void take_up_in(const VesselUptake& u, const Grid& g, const Box& window,
                                  std::int32_t m, double* f, double* c) {
  const std::int32_t at = window.find(g, m);
  if (at >= 0) take_up(u, f[at], c[at]);
}

}  // namespace solvent::stencil3d
