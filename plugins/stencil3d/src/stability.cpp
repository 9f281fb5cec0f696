#include "src/stability.hpp"

#include "src/field_update.hpp"

#include <solvent/errors.hpp>
#include <solvent_family_angiogenesis_3d/coefficients.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace solvent::stencil3d {

StabilityLimit stability_limit(const SimulationState& s, int threads, const Communicator& comm) {
  const auto g = solvent::angiogenesis_3d::grid_of(s.p);
  const bool continuous = s.p.mode == solvent::angiogenesis_3d::Mode::Continuous;
  const Box& b = s.block;
  double centre = 1e300, n_max = continuous ? 0.0 : 1.0;
#ifdef _OPENMP
  const int team = threads > 0 ? threads : omp_get_max_threads();
#else
  (void)threads;
#endif
// clang-format off
#pragma omp parallel for collapse(2) reduction(min : centre) reduction(max : n_max) \
    num_threads(team)
// clang-format on
  for (std::int32_t k = b.offset[2]; k < b.offset[2] + b.extent[2]; ++k)
    for (std::int32_t j = b.offset[1]; j < b.offset[1] + b.extent[1]; ++j)
      for (std::int32_t i = b.offset[0]; i < b.offset[0] + b.extent[0]; ++i) {
        const auto nb = window_neighbours(g, s.window, i, j, k);
        centre = std::min(centre, solvent::angiogenesis_3d::centre_step_limit(
                                      s.p, gather(s.c.data(), nb), gather(s.f.data(), nb)));
        if (continuous) n_max = std::max(n_max, s.n[static_cast<std::size_t>(nb.m[0])]);
      }
  // Over the ranks' blocks: a minimum and a maximum are exact, so every rank count gives
  // the limit of one process.
  double extremes[] = {-centre, n_max};
  comm.max(extremes);
  centre = -extremes[0];
  n_max = extremes[1];
  // The uptake runs at rate max(gamma, eta) n: n = 1 on the vessel nodes of the hybrid mode,
  // the largest n in the continuous one.
  const double uptake_rate = std::max(s.p.gamma, s.p.eta) * n_max;
  const double uptake = uptake_rate > 0.0 ? 1.0 / uptake_rate : 1e300;
  if (centre <= uptake)
    return {centre, continuous ? "P0 >= 0 (the weight of n at its own node, from diffusion and "
                                 "taxis)"
                               : "P0 >= 0 (the stay probability of a tip, from diffusion and "
                                 "taxis)"};
  return {uptake, continuous ? "k max(gamma, eta) max(n) <= 1 (uptake of f and c by the cells)"
                             : "k max(gamma, eta) <= 1 (vessel uptake of f and c)"};
}

namespace {

// The first value of the block that fails its field's range, in the order one process checks
// (c, f, n, each in the grid's node order): its place in that order and the message.
struct Fault {
  std::int64_t order;
  std::string message;
};

std::optional<Fault> first_fault(const SimulationState& s, int threads) {
#ifdef _OPENMP
  const int team = threads > 0 ? threads : omp_get_max_threads();
#else
  (void)threads;
#endif
  const auto g = solvent::angiogenesis_3d::grid_of(s.p);
  // Rounding may leave a value an ulp outside a bound it tends to.
  const double slack = 1e-12;
  const double f_max = s.p.gamma > 0.0 ? std::max(s.p.f_amplitude, s.p.beta / s.p.gamma) : 1e300;
  struct Field {
    const char* name;
    const std::vector<double>& v;
    double lower, upper;
    const char* cause;
  };
  const char* uptake = s.n.empty()
                           ? "the vessel uptake is unstable (k max(gamma, eta) > 1?) — reduce dt"
                           : "the uptake is unstable (k max(gamma, eta) max(n) > 1?) — reduce dt";
  // n leaves [0, inf) where a weight of the update is negative: P0 (dt too large) or a move
  // weight, where taxis outweighs diffusion over one cell, whatever dt.
  const char* cells =
      "a weight of the n update is negative (P0 < 0: reduce dt; P1..P6 < 0 where taxis "
      "outweighs diffusion over a cell: refine h)";
  const Box& b = s.block;
  std::int64_t order = 0;
  for (const Field& field :
       {Field{"c", s.c, 0.0, 1.0, uptake}, Field{"f", s.f, 0.0, f_max, uptake},
        Field{"n", s.n, 0.0, std::numeric_limits<double>::infinity(), cells}}) {
    if (field.v.empty()) continue;
    const auto fails = [&](std::int32_t i, std::int32_t j, std::int32_t k) {
      const double v = field.v[static_cast<std::size_t>(s.window.index(i, j, k))];
      return !(std::isfinite(v) && v >= field.lower - slack && v <= field.upper + slack);
    };
    // The layers over the threads, for the first that holds a fault (faults are rare; a block
    // of 10^9 nodes is not), then that layer in order for its first.
    const std::int32_t past = b.offset[2] + b.extent[2];
    std::int32_t first_k = past;
#pragma omp parallel for schedule(static) reduction(min : first_k) num_threads(team)
    for (std::int32_t k = b.offset[2]; k < past; ++k) {
      bool bad = false;
      for (std::int32_t j = b.offset[1]; j < b.offset[1] + b.extent[1] && !bad; ++j)
        for (std::int32_t i = b.offset[0]; i < b.offset[0] + b.extent[0] && !bad; ++i)
          bad = fails(i, j, k);
      if (bad) first_k = std::min(first_k, k);
    }
    if (first_k < past)
      for (std::int32_t k = first_k, j = b.offset[1]; j < b.offset[1] + b.extent[1]; ++j)
        for (std::int32_t i = b.offset[0]; i < b.offset[0] + b.extent[0]; ++i) {
          if (!fails(i, j, k)) continue;
          const double v = field.v[static_cast<std::size_t>(s.window.index(i, j, k))];
          return Fault{
              order + g.index(i, j, k),
              fmt::format(
                  "explicit-stencil3d: at step {} (t = {:.6g}) {} = {:g} at node ({}, {}, {}) "
                  "is {} [{:g}, {:g}]; {}",
                  s.step, static_cast<double>(s.step) * s.dt, field.name, v, i, j, k,
                  std::isfinite(v) ? "outside its range" : "not finite, range", field.lower,
                  field.upper, field.cause)};
        }
    order += g.size();
  }
  return std::nullopt;
}

}  // namespace

void check_fields(const SimulationState& s, int threads, const Communicator& comm) {
  // Each rank checks its block; all of them then throw the fault one process would have
  // found first, so the message does not depend on the ranks.
  std::string mine;
  if (const auto fault = first_fault(s, threads))
    mine = std::to_string(fault->order) + " " + fault->message;
  std::optional<Fault> first;
  for (const std::string& theirs : comm.gather_all(mine)) {
    if (theirs.empty()) continue;
    const auto space = theirs.find(' ');
    const std::int64_t order = std::stoll(theirs.substr(0, space));
    if (!first || order < first->order) first = Fault{order, theirs.substr(space + 1)};
  }
  if (first) throw solvent::DivergenceError(first->message);
}

}  // namespace solvent::stencil3d
