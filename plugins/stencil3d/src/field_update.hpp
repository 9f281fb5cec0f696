#pragma once
// The continuous part of one step. Hybrid mode: f and c change on vessel nodes (n = 1
// there) only. Continuous mode: n, f and c change at every node (continuous_update, the one
// definition the CPU and CUDA engines both compile). gather() reads a field's stencil.
#include <solvent_stencil3d/box.hpp>

#include <solvent_family_angiogenesis_3d/coefficients.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>

namespace solvent::stencil3d {

// The seven array indices of the stencil at global node (i, j, k) in an array laid out as
// `window` (the whole grid on one rank: solvent::angiogenesis_3d::neighbours), with the grid's
// mirror ghosts: over ranks a face neighbour on another rank's block is in the window's
// ghost layer, and the mirror node of a grid face is in the block or that layer.
SOLVENT_HD inline solvent::angiogenesis_3d::Neighbours window_neighbours(const Grid& g,
                                                                        const Box& window,
                                                                        std::int32_t i,
                                                                        std::int32_t j,
                                                                        std::int32_t k) {
  using solvent::angiogenesis_3d::mirror_above;
  using solvent::angiogenesis_3d::mirror_below;
  const std::int32_t sx = 1, sy = window.extent[0], sz = window.extent[0] * window.extent[1];
  const std::int32_t c = window.index(i, j, k);
  return {{c, c + (mirror_below(i) - i) * sx, c + (mirror_above(i, g.nx) - i) * sx,
           c + (mirror_below(j) - j) * sy, c + (mirror_above(j, g.ny) - j) * sy,
           c + (mirror_below(k) - k) * sz, c + (mirror_above(k, g.nz) - k) * sz}};
}

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

// Continuous mode, one forward-Euler step at one node from the stencils of the old n, c
// and f (Darbyshire's discretisation of Anderson and Chaplain's system):
//   n' = P0 n + P1 n(x+h) + P2 n(x-h) + P3 n(y+h) + P4 n(y-h) + P5 n(z+h) + P6 n(z-h)
//   f' = f + k beta n - k gamma n f,   c' = c - k eta n c
// P1 multiplies n(x+h) (coefficients.hpp says why). Every operation is written out in one
// order, with no fused multiply-add on either compiler, so both engines round alike.
struct ContinuousStep {
  solvent::angiogenesis_3d::SchemeConstants s;
  double k_beta, k_gamma, k_eta;
};

inline ContinuousStep continuous_step(const solvent::angiogenesis_3d::Parameters& p, double k) {
  return {solvent::angiogenesis_3d::scheme_constants(p, k), k * p.beta, k * p.gamma, k * p.eta};
}

struct NodeValues {
  double n, f, c;
};

SOLVENT_HD inline NodeValues continuous_update(const ContinuousStep& u,
                                               const solvent::angiogenesis_3d::Stencil& n,
                                               const solvent::angiogenesis_3d::Stencil& c,
                                               const solvent::angiogenesis_3d::Stencil& f) {
  const auto coefficients = solvent::angiogenesis_3d::coefficients(u.s, c, f);
  const double* P = coefficients.P;
  const double n0 = n.v[0];
  const double moved = P[0] * n0 + P[1] * n.v[2] + P[2] * n.v[1] + P[3] * n.v[4] +
                       P[4] * n.v[3] + P[5] * n.v[6] + P[6] * n.v[5];
  return {moved, f.v[0] + u.k_beta * n0 - u.k_gamma * n0 * f.v[0],
          c.v[0] - u.k_eta * n0 * c.v[0]};
}

// The update of global node (i, j, k) from the old fields into the new ones, all laid out
// as `window`.
SOLVENT_HD inline void continuous_node(const ContinuousStep& u, const Grid& g, const Box& window,
                                       std::int32_t i, std::int32_t j, std::int32_t k,
                                       const double* n, const double* f, const double* c,
                                       double* n_new, double* f_new, double* c_new) {
  const auto nb = window_neighbours(g, window, i, j, k);
  const NodeValues v = continuous_update(u, gather(n, nb), gather(c, nb), gather(f, nb));
  n_new[nb.m[0]] = v.n;
  f_new[nb.m[0]] = v.f;
  c_new[nb.m[0]] = v.c;
}

}  // namespace solvent::stencil3d
