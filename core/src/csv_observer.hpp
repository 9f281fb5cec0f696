#pragma once
// Writes what an integrator reports as CSV in the output directory:
//   observables.csv             one row per step (step, t, each observable)
//   profiles/step_NNNNNNNN.csv  the state on the grid at the configured steps or times
//   solution.csv                a converged steady solution
//   unconverged_iterate.csv     the last iterate of a solve that did not converge
//   residual_history.csv        an iterative solve's residual per iteration (0: initial guess)
// Numbers are printed with 17 significant digits, so a rerun compares bit for bit.
#include <solvent/observer.hpp>
#include <solvent/parameters.hpp>

#include <filesystem>
#include <fstream>
#include <optional>

namespace solvent {

class CsvObserver : public Observer {
 public:
  // resume: continue an earlier run's observables.csv, keeping its rows before the first
  // step reported now.
  CsvObserver(std::filesystem::path dir, const Parameters& output, bool resume = false);
  ~CsvObserver() override;

  void on_start(const FieldLayout& layout) override;
  void on_step(const StepInfo& info, std::span<const double> u,
               std::span<const Observable> observables) override;
  void on_solution(const Vector& x, const SolveStats& stats,
                   std::span<const Observable> observables) override;

  // Closes observables.csv and renames it into place (also after a failed run, so what
  // was computed up to the failure is kept).
  void finish();

  const std::optional<SolveStats>& solve_stats() const { return solve_stats_; }
  const std::vector<Observable>& last_observables() const { return last_observables_; }
  // The last step reported (also when the run failed after it).
  const StepInfo& last_step() const { return last_step_; }

 private:
  bool profile_due(const StepInfo& info);
  void open_observables(const StepInfo& first, std::span<const Observable> observables);

  std::filesystem::path dir_;
  std::int64_t every_;
  std::vector<double> times_;
  std::size_t next_time_ = 0;
  bool write_solution_;
  bool resume_;
  FieldLayout layout_;
  std::ofstream observables_;
  std::filesystem::path observables_partial_;
  std::optional<SolveStats> solve_stats_;
  std::vector<Observable> last_observables_;
  StepInfo last_step_;
};

}  // namespace solvent
