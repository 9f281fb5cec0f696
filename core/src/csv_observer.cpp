#include "csv_observer.hpp"

#include "output_manifest.hpp"
#include "vtk_writer.hpp"

#include <solvent/errors.hpp>
#include <solvent/output.hpp>

#include <fmt/format.h>

namespace solvent {

namespace fs = std::filesystem;

CsvObserver::CsvObserver(fs::path dir, const Parameters& output, bool resume)
    : dir_(std::move(dir)),
      every_(output.integer("every")),
      times_(output.reals("times")),
      write_solution_(output.boolean("solution")),
      resume_(resume) {}

CsvObserver::~CsvObserver() { finish(); }

void CsvObserver::on_start(const FieldLayout& layout) { layout_ = layout; }

bool CsvObserver::profile_due(const StepInfo& info) {
  if (layout_.components.empty()) return false;
  if (info.step == 0 || info.step == info.total_steps) return true;
  if (times_.empty()) return info.step % every_ == 0;
  // Steps land on multiples of dt: take the first step at or past each requested time.
  bool due = false;
  while (next_time_ < times_.size() && info.t >= times_[next_time_] - 1e-9 * info.dt) {
    due = true;
    ++next_time_;
  }
  return due;
}

void CsvObserver::on_step(const StepInfo& info, std::span<const double> u,
                          std::span<const Observable> observables) {
  last_observables_.assign(observables.begin(), observables.end());
  last_step_ = info;
  if (!observables_.is_open()) open_observables(info, observables);
  observables_ << info.step << ',' << fmt::format("{:.17g}", info.t);
  for (const auto& o : observables) observables_ << ',' << fmt::format("{:.17g}", o.value);
  observables_ << '\n';

  const bool one_axis = layout_.axes.size() == 1;
  if (!(one_axis || vtk_grid_layout(layout_)) || u.size() != layout_.size() || !profile_due(info))
    return;
  fs::create_directories(dir_ / "profiles");
  const auto stem = dir_ / "profiles" / fmt::format("step_{:08d}", info.step);
  if (!one_axis) return write_vtk_grid(stem, layout_, u);
  const Axis& axis = layout_.axes.front();
  std::string csv = axis.name;
  for (const auto& c : layout_.components) csv += "," + c;
  csv += '\n';
  const std::size_t m = layout_.points();
  for (std::size_t i = 0; i < m; ++i) {
    csv += fmt::format("{:.17g}", axis.coordinates[i]);
    for (std::size_t c = 0; c < layout_.components.size(); ++c)
      csv += fmt::format(",{:.17g}", u[c * m + i]);
    csv += '\n';
  }
  write_file_atomic(fs::path(stem) += ".csv", csv);
}

void CsvObserver::open_observables(const StepInfo& first, std::span<const Observable> observables) {
  observables_partial_ = dir_ / "observables.csv.partial";
  std::vector<std::string> kept;
  if (resume_) {
    std::ifstream earlier(dir_ / "observables.csv");
    std::string line;
    if (std::getline(earlier, line)) kept.push_back(line);
    while (std::getline(earlier, line))
      if (std::stoll(line.substr(0, line.find(','))) < first.step) kept.push_back(line);
  }
  observables_.open(observables_partial_);
  note_written(observables_partial_);
  if (!observables_) throw Error("cannot write " + observables_partial_.string());
  if (kept.empty()) {
    observables_ << "step,t";
    for (const auto& o : observables) observables_ << ',' << o.name;
    observables_ << '\n';
  }
  for (const auto& l : kept) observables_ << l << '\n';
}

void CsvObserver::on_solution(const Vector& x, const SolveStats& stats,
                              std::span<const Observable> observables) {
  solve_stats_ = stats;
  last_observables_.assign(observables.begin(), observables.end());
  if (!stats.residual_history.empty()) {
    std::string h = "iteration,relative_residual\n";
    for (std::size_t i = 0; i < stats.residual_history.size(); ++i)
      h += fmt::format("{},{:.17g}\n", i, stats.residual_history[i]);  // 0: the initial guess
    write_file_atomic(dir_ / "residual_history.csv", h);
  }
  if (!write_solution_ && stats.converged) return;
  std::string csv;
  std::visit(
      [&](const auto& v) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        if constexpr (std::is_same_v<T, double>) {
          csv = "index,value\n";
          for (std::size_t i = 0; i < v.size(); ++i) csv += fmt::format("{},{:.17g}\n", i, v[i]);
        } else {
          csv = "index,re,im\n";
          for (std::size_t i = 0; i < v.size(); ++i)
            csv += fmt::format("{},{:.17g},{:.17g}\n", i, v[i].real(), v[i].imag());
        }
      },
      x);
  const auto stem = dir_ / (stats.converged ? "solution" : "unconverged_iterate");
  write_file_atomic(fs::path(stem) += ".csv", csv);
  const auto* real = std::get_if<std::vector<double>>(&x);
  if (real && vtk_grid_layout(solution_layout_) && real->size() == solution_layout_.size())
    write_vtk_grid(stem, solution_layout_, *real);
}

void CsvObserver::set_solution_layout(FieldLayout layout) { solution_layout_ = std::move(layout); }

void CsvObserver::finish() {
  if (!observables_.is_open()) return;
  observables_.close();
  std::error_code ec;
  fs::rename(observables_partial_, dir_ / "observables.csv", ec);
  if (!ec) note_written(dir_ / "observables.csv");
}

}  // namespace solvent
