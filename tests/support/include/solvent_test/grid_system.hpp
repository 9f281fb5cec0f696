#pragma once
// Loads the grid-equations-3d model and solves its system with a MATM solver, the way
// the steady integrator does, for the tests of this folder.
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace solvent::test {

using solvent::testkit::Settings;

struct Solved {
  solvent::SolveStats stats;
  std::vector<double> x;
  std::vector<double> exact;
  double error_max = 0.0;
  solvent::Facts facts;
};

inline double observable(const std::vector<solvent::Observable>& obs, const std::string& name) {
  for (const auto& o : obs)
    if (o.name == name) return o.value;
  FAIL("no observable " << name);
  return 0.0;
}

inline Solved solve_grid(const Settings& model_settings, const std::string& solver_name,
                         const Settings& solver_settings) {
  auto model = solvent::testkit::make_model("grid-equations-3d", model_settings);
  auto* problem = model->linear();
  REQUIRE(problem != nullptr);
  auto solver = solvent::testkit::make_linear_solver(solver_name, solver_settings);
  solver->setup(problem->matrix());
  const auto b = std::get<std::vector<double>>(problem->rhs());
  Solved s;
  s.x.assign(b.size(), 0.0);
  s.stats = solver->solve(std::span<const double>(b), std::span<double>(s.x));
  s.exact = std::get<std::vector<double>>(*problem->exact_solution());
  s.error_max = observable(problem->observables(solvent::Vector(s.x)), "error_max");
  s.facts = solver->facts();
  return s;
}

inline std::string fact(const solvent::Facts& f, const std::string& key) {
  for (const auto& [k, v] : f)
    if (k == key) return v;
  return "";
}

}  // namespace solvent::test
