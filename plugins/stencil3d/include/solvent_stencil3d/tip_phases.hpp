#pragma once
// The discrete phase of one step, split into per-tip functions that read only what the
// step started with, so that the result does not depend on the order in which tips are
// processed: the CPU runs each phase as a loop, CUDA as one thread per tip in one block
// with a barrier between phases, and both produce the identical network.
//
// decide() is the only phase that reads the fields: over several ranks each rank decides
// the tips on its own block, and from the decisions of all (only the tips that move or
// branch) each rank resolves and commits them, its window's vessel nodes changing where
// they lie in it (docs/architecture.md, "The hybrid stencil over ranks").
//
//   decide  : each tip picks its move (by P0..P6 at its node) and maybe a branch site,
//             notes who owns the node it moves onto, and counts those of P0..P6 that are
//             no probabilities;
//             proposals beyond the free tip slots are withdrawn, later tips first
//   resolve : claims on nodes are ordered by (tip, move before branch); a move onto a node
//             of another sprout, or onto a node an earlier claim takes this step, fuses
//             the tip (anastomosis); a branch onto a node claimed earlier is cancelled.
//             The earliest claim on a free node always succeeds, so no tip fuses with a
//             claim that did not happen.
//   commit  : after an exclusive scan of the per-tip counts, each tip writes its segments,
//             new vessel nodes and new tip at its own offsets
#include <solvent_stencil3d/box.hpp>
#include <solvent_stencil3d/network_counters.hpp>
#include <solvent_stencil3d/simulation_state.hpp>

#include <solvent_family_angiogenesis_3d/coefficients.hpp>
#include <solvent_family_angiogenesis_3d/counter_rng.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>
#include <solvent_family_angiogenesis_3d/tip_rules.hpp>

#include <cstdint>

namespace solvent::stencil3d {

// Everything the tip phase touches; pointers are host or device memory. Tips, segments and
// vessel nodes are named by global node index; f, c and owner cover `window` only.
struct TipView {
  solvent::angiogenesis_3d::Parameters p;
  solvent::angiogenesis_3d::SchemeConstants s;
  Grid g;
  Box window;  // the nodes of f, c and owner
  Box block;   // the nodes whose tips this engine decides (within the window)
  double dt;
  std::uint64_t seed;
  const double* f;
  const double* c;
  std::int32_t* owner;  // sprout id per node, -1 where no vessel
  std::int32_t* node;   // per tip slot
  std::int64_t* birth;  // step at which the tip appeared
  std::int32_t* active;
  std::int32_t* segments;  // pairs of node indices
  std::int32_t* vessel;    // vessel node list
  std::int32_t segment_capacity;
  std::int32_t vessel_capacity;
  NetworkCounters* counters;
};

// The per-tip outcome of resolve(), packed for one exclusive scan: 16 bits each.
struct Outcome {
  static constexpr std::int64_t segment = 1, vessel = 1ll << 16, fuse = 1ll << 32,
                                branch = (1ll << 48) + segment + vessel;
  static SOLVENT_HD std::int32_t segments(std::int64_t v) { return v & 0xFFFF; }
  static SOLVENT_HD std::int32_t vessels(std::int64_t v) { return (v >> 16) & 0xFFFF; }
  static SOLVENT_HD std::int32_t fusions(std::int64_t v) { return (v >> 32) & 0xFFFF; }
  static SOLVENT_HD std::int32_t branches(std::int64_t v) { return (v >> 48) & 0xFFFF; }
};

// The node one step from m in direction d (1..6), or -1 outside the box.
SOLVENT_HD inline std::int32_t step_to(const Grid& g, std::int32_t m, int d) {
  std::int32_t i, j, k;
  g.coordinates(m, i, j, k);
  const int axis = (d - 1) / 2;
  const int sign = (d % 2 == 1) ? -1 : 1;
  const std::int32_t pos = axis == 0 ? i : (axis == 1 ? j : k);
  const std::int32_t n = axis == 0 ? g.nx : (axis == 1 ? g.ny : g.nz);
  const std::int32_t stride = axis == 0 ? 1 : (axis == 1 ? g.nx : g.nx * g.ny);
  if (pos + sign < 0 || pos + sign >= n) return -1;
  return m + sign * stride;
}

// The sprout owning node q, which the window holds.
SOLVENT_HD inline std::int32_t owner_of(const TipView& v, std::int32_t q) {
  return v.owner[v.window.find(v.g, q)];
}

// Whether this engine decides tip t: an active tip on its block.
SOLVENT_HD inline bool decides_here(const TipView& v, std::int32_t t) {
  return v.active[t] && v.block.find(v.g, v.node[t]) >= 0;
}

// Vessel nodes in the cube of half-width r around node m (clipped to the box).
SOLVENT_HD inline std::int32_t vessel_density(const TipView& v, std::int32_t m) {
  std::int32_t i, j, k;
  v.g.coordinates(m, i, j, k);
  const auto r = static_cast<std::int32_t>(v.p.density_radius);
  std::int32_t count = 0;
  for (std::int32_t c = k - r; c <= k + r; ++c)
    for (std::int32_t b = j - r; b <= j + r; ++b)
      for (std::int32_t a = i - r; a <= i + r; ++a)
        if (a >= 0 && a < v.g.nx && b >= 0 && b < v.g.ny && c >= 0 && c < v.g.nz &&
            v.owner[v.window.index(a, b, c)] >= 0)
          ++count;
  return count;
}

// decide: target[t] is the node the tip moves to (-1: it stays), met[t] the sprout owning
// that node as the step began (-1: none), site[t] the free neighbour a new sprout starts
// from (-1: no branch). Returns how many of the tip's seven movement probabilities lie
// outside [0, 1] (0 for an inactive tip). It reads f and c on the tip's 7-point stencil and
// owner within density_radius of the tip (at least its face neighbours): a window of the
// tip's block and that many nodes around it suffices.
SOLVENT_HD inline int decide(const TipView& v, std::int64_t step, std::int32_t t,
                             std::int32_t* target, std::int32_t* met, std::int32_t* site) {
  target[t] = -1;
  met[t] = -1;
  site[t] = -1;
  if (!v.active[t]) return 0;
  const std::int32_t m = v.node[t];
  std::int32_t i, j, k;
  v.g.coordinates(m, i, j, k);
  const auto nb = solvent::angiogenesis_3d::neighbours(v.g, i, j, k);
  solvent::angiogenesis_3d::Stencil cs, fs;
  for (int q = 0; q < 7; ++q) {
    const std::int32_t at = v.window.find(v.g, nb.m[q]);
    cs.v[q] = v.c[at];
    fs.v[q] = v.f[at];
  }
  const auto coeff = solvent::angiogenesis_3d::coefficients(v.s, cs, fs);
  const int bad = solvent::angiogenesis_3d::invalid_probabilities(coeff);
  const int d = solvent::angiogenesis_3d::choose_direction(
      coeff,
      solvent::angiogenesis_3d::uniform(v.seed, step, t, solvent::angiogenesis_3d::Draw::Move));
  if (d != 0) target[t] = step_to(v.g, m, d);  // a move out of the box is cancelled
  if (target[t] >= 0) met[t] = owner_of(v, target[t]);

  const double c0 = cs.v[0];
  if (!(static_cast<double>(step - v.birth[t]) * v.dt > v.p.branch_age) || !(c0 > 0.0))
    return bad;
  std::int32_t free_sites[6];
  int n_free = 0;
  for (int dir = 1; dir <= 6; ++dir) {
    const std::int32_t q = step_to(v.g, m, dir);
    if (q >= 0 && owner_of(v, q) < 0) free_sites[n_free++] = q;
  }
  if (n_free == 0) return bad;
  if (!(static_cast<double>(vessel_density(v, m)) > v.p.density_factor / c0)) return bad;
  const double prob = solvent::angiogenesis_3d::branch_probability(v.p, c0);
  if (!(solvent::angiogenesis_3d::uniform(v.seed, step, t, solvent::angiogenesis_3d::Draw::Branch) <
        prob))
    return bad;
  auto pick = static_cast<int>(solvent::angiogenesis_3d::uniform(
                                   v.seed, step, t, solvent::angiogenesis_3d::Draw::BranchSite) *
                               n_free);
  site[t] = free_sites[pick < n_free ? pick : n_free - 1];
  return bad;
}

// Whether a tip before t claims node q this step.
SOLVENT_HD inline bool claimed_before(std::int32_t t, std::int32_t q, const std::int32_t* target,
                                      const std::int32_t* site) {
  for (std::int32_t u = 0; u < t; ++u)
    if (target[u] == q || site[u] == q) return true;
  return false;
}

// Whether a branch proposal of rank `rank` among this step's proposals fits in the tip
// slots left.
SOLVENT_HD inline bool branch_fits(const TipView& v, std::int32_t tips, std::int32_t rank) {
  return tips + rank < v.p.max_tips;
}

// resolve for tip t from its decision (target q, met, site s): the tip's packed Outcome
// counts, its branch included. `earlier(q)` says whether a tip before t claims node q this
// step; it reads the decisions only (the owner of a target is decide()'s met), so any rank
// can resolve any tip, and a rank that holds the claims indexed by node (the CPU engine)
// need not scan every tip before t.
template <class EarlierClaim>
SOLVENT_HD std::int64_t resolve_decision(const TipView& v, std::int32_t t, std::int32_t q,
                                         std::int32_t met, std::int32_t s,
                                         const EarlierClaim& earlier) {
  std::int64_t out = 0;
  if (q >= 0) {
    out += Outcome::segment;
    const std::int64_t meets = v.p.anastomosis ? Outcome::fuse : 0;
    if (met < 0)
      out += earlier(q) ? meets : Outcome::vessel;
    else if (met != t)
      out += meets;
  }
  if (s >= 0 && s != q && !earlier(s)) out += Outcome::branch;
  return out;
}

// The claims before tip t, found by scanning the decisions of every tip before it.
struct ScannedClaims {
  std::int32_t t;
  const std::int32_t* target;
  const std::int32_t* site;
  SOLVENT_HD bool operator()(std::int32_t q) const { return claimed_before(t, q, target, site); }
};

// resolve with the decisions of all tips in arrays indexed by tip (the CUDA engine, one
// thread a tip).
SOLVENT_HD inline std::int64_t resolve(const TipView& v, std::int32_t t, const std::int32_t* target,
                                       const std::int32_t* met, const std::int32_t* site) {
  return resolve_decision(v, t, target[t], met[t], site[t], ScannedClaims{t, target, site});
}

// commit: `before` is the exclusive scan of the outcomes over the tips before t; returns
// the largest x index the tip and its new branch reach. Every rank commits every tip that
// moves or branches (the others change nothing), so the tips and the network are the same
// everywhere; owner changes where the window holds the node.
SOLVENT_HD inline std::int32_t commit(const TipView& v, const NetworkCounters& start,
                                      std::int64_t step, std::int32_t t, const std::int32_t* target,
                                      const std::int32_t* site, std::int64_t outcome,
                                      std::int64_t before) {
  const std::int32_t m = v.node[t];
  std::int32_t segment_at = start.segments + Outcome::segments(before);
  std::int32_t vessel_at = start.vessel_nodes + Outcome::vessels(before);
  const bool branch = Outcome::branches(outcome) != 0;
  const std::int64_t move = outcome - (branch ? Outcome::branch : 0);
  auto add_segment = [&](std::int32_t a, std::int32_t b) {
    if (segment_at < v.segment_capacity) {
      v.segments[2 * segment_at] = a;
      v.segments[2 * segment_at + 1] = b;
    }
    ++segment_at;
  };
  auto add_vessel = [&](std::int32_t q, std::int32_t sprout) {
    const std::int32_t at = v.window.find(v.g, q);
    if (at >= 0) v.owner[at] = sprout;
    if (vessel_at < v.vessel_capacity) v.vessel[vessel_at] = q;
    ++vessel_at;
  };
  const std::int32_t q = target[t];
  if (q >= 0) {
    add_segment(m, q);
    if (Outcome::vessels(move)) add_vessel(q, t);
    if (Outcome::fusions(move)) v.active[t] = 0;
    v.node[t] = q;
  }
  if (branch) {
    // A sprout's age counts from its last branching (Anderson & Chaplain's psi).
    v.birth[t] = step + 1;
    const std::int32_t slot = start.tips + Outcome::branches(before);
    add_segment(m, site[t]);
    add_vessel(site[t], slot);
    v.node[slot] = site[t];
    v.birth[slot] = step + 1;
    v.active[slot] = 1;
  }
  const std::int32_t x = v.node[t] % v.g.nx;
  const std::int32_t xb = branch ? site[t] % v.g.nx : 0;
  return x > xb ? x : xb;
}

// The counters after a step, from the scan's total and the sum of decide()'s counts; the
// tips that decided are those active when the step began.
SOLVENT_HD inline void add_totals(NetworkCounters& n, std::int64_t totals, std::int32_t furthest_i,
                                  std::int32_t bad_probabilities, std::int32_t segment_capacity,
                                  std::int32_t vessel_capacity) {
  n.probabilities += 7 * static_cast<std::int64_t>(n.active);
  n.bad_probabilities += bad_probabilities;
  const std::int32_t branches = Outcome::branches(totals);
  n.tips += branches;
  n.active += branches - Outcome::fusions(totals);
  n.branches += branches;
  n.anastomoses += Outcome::fusions(totals);
  n.segments += Outcome::segments(totals);
  n.vessel_nodes += Outcome::vessels(totals);
  if (furthest_i > n.furthest_i) n.furthest_i = furthest_i;
  if (n.segments > segment_capacity || n.vessel_nodes > vessel_capacity) n.overflow = 1;
}

// A TipView over arrays laid out like those of `s` (host or device copies).
inline TipView tip_view(const SimulationState& s, const double* f, const double* c,
                        std::int32_t* owner, std::int32_t* node, std::int64_t* birth,
                        std::int32_t* active, std::int32_t* segments, std::int32_t* vessel,
                        NetworkCounters* counters) {
  return {s.p,
          solvent::angiogenesis_3d::scheme_constants(s.p, s.dt),
          solvent::angiogenesis_3d::grid_of(s.p),
          s.window,
          s.block,
          s.dt,
          s.seed,
          f,
          c,
          owner,
          node,
          birth,
          active,
          segments,
          vessel,
          s.segment_capacity(),
          s.vessel_capacity(),
          counters};
}

}  // namespace solvent::stencil3d
