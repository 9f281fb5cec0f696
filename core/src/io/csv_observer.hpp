#pragma once
// Writes what an integrator reports into the output directory, as CSV and, for fields on grids
// of two or three axes, as VTK:
//   observables.csv             one row per step (step, t, each observable)
//   profiles/step_NNNNNNNN.csv  the state on a one-axis grid at the configured steps or times
//   profiles/step_NNNNNNNN.vti  the same on a grid of two or three axes (.vtr where an axis is
//                               not uniformly spaced; vtk_writer.hpp), each with its time as
//                               TimeValue, and profiles.pvd listing them with their times
//                               (.vtkhdf with [output] format = "vtkhdf", one file per time)
//   solution.csv                a converged steady solution; solution.vti (.vtr) instead where
//                               set_solution_layout gave a grid of two or three axes
//   unconverged_iterate.csv     the last iterate of a solve that did not converge (.vti or
//                               .vtr as the solution)
// Field files (.vti, .vtr, .vtkhdf) as [output] format and precision say; none with
// format = "none".
//   residual_history.csv        an iterative solve's residual per iteration (0: initial guess)
// A solution held in blocks by several ranks (the layout set_solution_layout gives has a
// block over more than one rank) is not written here: every rank writes its piece of
// solution.pvti (distributed_solution_writer.hpp).
// Numbers are printed with 17 significant digits (VTK's in raw binary), so a rerun compares
// bit for bit.
#include "io/vtk_writer.hpp"
#include "sdk/checked_file.hpp"

#include <solvent/observer.hpp>
#include <solvent/parameters.hpp>

#include <filesystem>
#include <optional>
#include <string_view>

namespace solvent {

// The observables a run left in `dir`: observables.csv.partial where it exists (a run still
// writing, or one that was killed), else observables.csv.
std::filesystem::path observables_file(const std::filesystem::path& dir);
// The step an observables row begins with, where the row has one followed by a comma.
std::optional<std::int64_t> row_step(std::string_view row);

class CsvObserver : public Observer {
 public:
  // resume: continue an earlier run's observables (observables.csv, or the .partial file of a
  // run that was killed), keeping its rows before the first step reported now, byte for byte.
  CsvObserver(std::filesystem::path dir, const Parameters& output, bool resume = false);
  ~CsvObserver() override;

  void on_start(const FieldLayout& layout) override;
  void on_step(const StepInfo& info, std::span<const double> u,
               std::span<const Observable> observables) override;
  void on_solution(const Vector& x, const SolveStats& stats,
                   std::span<const Observable> observables) override;
  // A steady solve's layout (LinearProblem::layout()), which on_solution is not given.
  void set_solution_layout(FieldLayout layout);

  // Closes observables.csv and renames it into place (also after a failed run, so what
  // was computed up to the failure is kept) — unless a write to it failed: a file cut
  // short keeps its .partial name.
  void finish();

  const std::optional<SolveStats>& solve_stats() const { return solve_stats_; }
  const std::vector<Observable>& last_observables() const { return last_observables_; }
  // The last step reported (also when the run failed after it).
  const StepInfo& last_step() const { return last_step_; }

 private:
  bool profile_due(const StepInfo& info);
  void open_observables(const StepInfo& first, std::span<const Observable> observables);
  void append_observables(std::string_view bytes);
  // profiles.pvd, the series of the grid profiles written so far (ParaView's time slider).
  void add_to_series(const StepInfo& info, const std::string& file);

  std::filesystem::path dir_;
  std::int64_t every_;
  std::vector<double> times_;
  std::size_t next_time_ = 0;
  bool times_caught_up_ = false;  // a resume's first step has passed over the earlier times
  bool write_solution_;
  bool fields_;  // [output] format is not "none"
  VtkFormat vtk_;
  bool resume_;
  FieldLayout layout_;
  FieldLayout solution_layout_;
  std::optional<CheckedFile> observables_;
  bool observables_broken_ = false;
  std::filesystem::path observables_partial_;
  std::vector<std::pair<double, std::string>> series_;  // (t, file in profiles/)
  std::optional<SolveStats> solve_stats_;
  std::vector<Observable> last_observables_;
  StepInfo last_step_;
};

}  // namespace solvent
