#include "io/csv_observer.hpp"

#include "io/output_manifest.hpp"
#include "io/vtk_writer.hpp"

#include <solvent/errors.hpp>
#include <solvent/io/output.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
#include <regex>

namespace solvent {

namespace fs = std::filesystem;

CsvObserver::CsvObserver(fs::path dir, const Parameters& output, bool resume)
    : dir_(std::move(dir)),
      every_(output.integer("every")),
      times_(output.reals("times")),
      write_solution_(output.boolean("solution")),
      fields_(vtk_fields_written(output)),
      vtk_(vtk_format(output)),
      resume_(resume) {}

CsvObserver::~CsvObserver() {
  // Reached without finish() only while an exception unwinds; the error being reported
  // matters more than one from closing, and the file then keeps its .partial name.
  try {
    finish();
  } catch (const Error&) {
  }
}

void CsvObserver::on_start(const FieldLayout& layout) { layout_ = layout; }

bool CsvObserver::profile_due(const StepInfo& info) {
  if (layout_.components.empty()) return false;
  if (info.step == 0 || info.step == info.total_steps) return true;
  if (times_.empty()) return info.step % every_ == 0;
  // A resumed run first reports its checkpoint's step again: the times the earlier run's
  // steps before it passed are passed over here, so that this step gets a profile only
  // where the uninterrupted run gave it one.
  if (resume_ && !times_caught_up_) {
    const double before = info.t - info.dt;
    while (next_time_ < times_.size() && before >= times_[next_time_] - 1e-9 * info.dt)
      ++next_time_;
  }
  times_caught_up_ = true;
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
  if (!observables_) open_observables(info, observables);
  std::string row = fmt::format("{},{:.17g}", info.step, info.t);
  for (const auto& o : observables) row += fmt::format(",{:.17g}", o.value);
  row += '\n';
  // One write per row, unbuffered: a run killed at any moment leaves every reported step.
  append_observables(row);

  const bool one_axis = layout_.axes.size() == 1;
  if (!(one_axis || (fields_ && vtk_grid_layout(layout_))) || u.size() != layout_.size() ||
      !profile_due(info))
    return;
  fs::create_directories(dir_ / "profiles");
  const auto stem = dir_ / "profiles" / fmt::format("step_{:08d}", info.step);
  if (!one_axis) {
    return add_to_series(info, write_vtk_grid(stem, layout_, u, vtk_, info.t).filename().string());
  }
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

void CsvObserver::add_to_series(const StepInfo& info, const std::string& file) {
  const fs::path pvd = dir_ / "profiles.pvd";
  if (resume_ && series_.empty()) {
    // A continued run keeps the earlier run's entries before its first step, as it keeps
    // their rows of observables.csv.
    std::ifstream in(pvd);
    static const std::regex entry(
        R"re(<DataSet timestep="([^"]*)" file="profiles/step_([0-9]+)\.(vti|vtr|vtkhdf)"/>)re");
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (std::regex_search(line, m, entry) && std::stoll(m[2]) < info.step)
        series_.push_back({std::stod(m[1]), fmt::format("step_{}.{}", m[2].str(), m[3].str())});
    }
  }
  series_.push_back({info.t, file});
  // The whole series again at each profile: small, and whole whenever the run stops.
  std::string text =
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\">\n  <Collection>\n";
  for (const auto& [t, f] : series_)
    text += fmt::format("    <DataSet timestep=\"{:.17g}\" file=\"profiles/{}\"/>\n", t, f);
  text += "  </Collection>\n</VTKFile>\n";
  write_file_atomic(pvd, text);
}

void CsvObserver::append_observables(std::string_view bytes) {
  try {
    observables_->write(bytes);
  } catch (const Error&) {
    observables_broken_ = true;
    throw;
  }
}

fs::path observables_file(const fs::path& dir) {
  std::error_code ec;
  const fs::path partial = dir / "observables.csv.partial";
  return fs::exists(partial, ec) ? partial : dir / "observables.csv";
}

std::optional<std::int64_t> row_step(std::string_view row) {
  std::int64_t step = 0;
  const auto [p, err] = std::from_chars(row.data(), row.data() + row.size(), step);
  if (err != std::errc() || p == row.data() + row.size() || *p != ',') return std::nullopt;
  return step;
}

namespace {
// The rows of an earlier run's observables before `first_step`, with its header, exactly as
// written. A row cut short at the very end (the run was killed while writing it) is
// dropped; any other damage refuses the resume, which could not reproduce the file.
std::vector<std::string> earlier_rows(const fs::path& dir, const std::string& header,
                                      std::int64_t first_step) {
  const fs::path file = observables_file(dir);
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<std::string> rows;
  std::size_t at = 0;
  for (std::size_t line = 1; at < text.size(); ++line) {
    const auto end = text.find('\n', at);
    if (end == std::string::npos) break;  // the unterminated last row of a killed run
    std::string row = text.substr(at, end - at);
    at = end + 1;
    if (line == 1) {
      if (row != header)
        throw InputError(fmt::format(
            "{}:1: the columns ({}) are not the ones this run writes ({}); it is not this "
            "experiment's file",
            file.string(), row, header));
      rows.push_back(std::move(row));
      continue;
    }
    const auto step = row_step(row);
    const bool whole = step && std::count(row.begin(), row.end(), ',') ==
                                   std::count(header.begin(), header.end(), ',');
    if (!whole)
      throw InputError(
          fmt::format("{}:{}: a damaged row; the run cannot be continued to the "
                      "same bytes (rerun it with --overwrite)",
                      file.string(), line));
    if (*step < first_step) rows.push_back(std::move(row));
  }
  return rows;
}
}  // namespace

void CsvObserver::open_observables(const StepInfo& first, std::span<const Observable> observables) {
  std::string header = "step,t";
  for (const auto& o : observables) header += ',' + o.name;
  std::vector<std::string> kept;
  if (resume_) kept = earlier_rows(dir_, header, first.step);
  if (kept.empty()) kept.push_back(header);
  observables_partial_ = dir_ / "observables.csv.partial";
  observables_.emplace(observables_partial_);
  note_written(observables_partial_);
  std::string text;
  for (const auto& l : kept) text += l + '\n';
  append_observables(text);
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
  // Over several ranks this rank holds its block alone: the ranks write the solution
  // together, as pieces (DistributedSolutionWriter).
  if (solution_layout_.block && solution_layout_.block->blocks.ranks() > 1) return;
  const auto stem = dir_ / (stats.converged ? "solution" : "unconverged_iterate");
  // A field on a grid is written as VTK alone: as CSV it would be three times the bytes of
  // its text and no viewer's format.
  const auto* real = std::get_if<std::vector<double>>(&x);
  if (real && vtk_grid_layout(solution_layout_) && real->size() == solution_layout_.size()) {
    if (fields_) write_vtk_grid(stem, solution_layout_, *real, vtk_);
    return;
  }
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
  write_file_atomic(fs::path(stem) += ".csv", csv);
}

void CsvObserver::set_solution_layout(FieldLayout layout) { solution_layout_ = std::move(layout); }

void CsvObserver::finish() {
  if (!observables_) return;
  // Closed once, whatever happens below: a failed sync is not retried by the destructor.
  struct Release {
    std::optional<CheckedFile>& file;
    ~Release() { file.reset(); }
  } release{observables_};
  if (observables_broken_) return;
  observables_->sync();
  observables_->close();
  std::error_code ec;
  fs::rename(observables_partial_, dir_ / "observables.csv", ec);
  if (ec)
    throw Error(fmt::format("cannot rename {} to observables.csv: {}",
                            observables_partial_.string(), ec.message()));
  note_written(dir_ / "observables.csv");
}

}  // namespace solvent
