#pragma once
// What the CPU and CUDA MATM solvers share around the iteration: the operator they take (a real
// seven-point stencil, which no other storage converts to),
// the settings, running the iteration with its log line, and the facts of the last solve.
#include <solvent/solvent.hpp>
#include <solvent_matm/iteration.hpp>

#include <memory>
#include <optional>
#include <string>

namespace solvent::matm {

class SolverBase : public LinearSolver {
 public:
  SolverBase(const PluginContext& ctx, std::string name);

  std::vector<OperatorForm> forms() const override;

 protected:
  // iterate() over the backend; the outcome is kept for facts().
  const SolveStats& run(MatmBackend& backend);
  // The facts of the last solve (none before the first).
  Facts outcome() const;

  std::shared_ptr<spdlog::logger> log_;
  std::string name_;
  IterationSettings settings_;
  std::optional<Outcome> last_;
};

}  // namespace solvent::matm
