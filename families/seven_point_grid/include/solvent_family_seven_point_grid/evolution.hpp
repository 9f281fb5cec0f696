#pragma once
// The family "stencil7-evolution/1": a linear time-dependent problem on a seven-point grid,
//   u_t + A u = g(t),
// A a constant Stencil7 (its inactive nodes, c0 = 0, keep u = 0) and g the source with the
// Dirichlet values of time t folded in. An implicit integrator solves, each step, a system
// (sigma I + A) u = rhs on the active nodes, itself a Stencil7 that any seven-point-capable
// solver takes; shifted_stencil() builds it once per sigma.
#include <solvent/solvent.hpp>

#include <memory>
#include <span>
#include <vector>

namespace solvent::seven_point_grid {

class Stencil7Evolution {
 public:
  virtual ~Stencil7Evolution() = default;
  // The state's layout: one component on the grid (this rank's block of it).
  virtual FieldLayout layout() const = 0;
  // A: a real Stencil7, with its block over several ranks.
  virtual std::shared_ptr<const Operator> stencil() const = 0;
  virtual void initial_state(std::span<double> u) const = 0;
  // g(t) at every node of the block (0 at inactive nodes).
  virtual void source(double t, std::span<double> g) const = 0;
  // What to record of the state u at time t (the error against the exact solution, where
  // the model knows one).
  virtual std::vector<Observable> observables(double t, std::span<const double> u) const = 0;
};

struct Stencil7EvolutionFamily {
  using type = const Stencil7Evolution;
  static constexpr const char* name = "stencil7-evolution/1";
};

// sigma I + A: A's couplings, sigma added to the diagonal of every active node.
inline std::shared_ptr<const Operator> shifted_stencil(const Stencil7<double>& a, double sigma) {
  auto op = std::make_shared<Operator>(Stencil7<double>(a.n1, a.n2, a.n3));
  auto& s = std::get<Stencil7<double>>(*op);
  s.block = a.block;
  const std::size_t n = a.size();
  for (int d = 1; d < 7; ++d)
    for (std::size_t m = 0; m < n; ++m) s.c[d][m] = a.c[d][m];
  for (std::size_t m = 0; m < n; ++m) s.c[0][m] = a.c[0][m] == 0.0 ? 0.0 : a.c[0][m] + sigma;
  return op;
}

}  // namespace solvent::seven_point_grid
