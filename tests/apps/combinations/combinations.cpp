// solvent-combinations SOURCE_DIR WORK_DIR — runs every (model case, integrator, CPU linear
// solver, preconditioner) combination of the plugins this build has on a small case of each
// shipped model, and prints the Markdown block of docs/combinations.md: the cases, the
// tolerances, and one row per combination. Each combination is either refused by the same
// check `solvent validate` makes (with its reason), or run by the same driver as `solvent run`
// and compared with the reference solver's run of the same case. Exits 1 when a run disagrees
// with the reference or fails without being listed below as an expected failure, so that the
// table never records a wrong answer as a success.
//
// The text depends on nothing but the numbers (no timings, no paths; differences in two
// buckets), so the test can compare it with the docs byte for byte. Reductions summed by
// several threads round differently with another thread count, and a difference can change
// bucket on that rounding: the program runs only with the thread counts the test and
// scripts/update-combinations give it.
#include "config/config_document.hpp"
#include "config/config_validation.hpp"
#include "log/logging.hpp"
#include "run/combination.hpp"
#include "run/run_driver.hpp"

#include <solvent/errors.hpp>
#include <solvent/plugin_factory.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
using solvent::PluginKind;

// A direct solve differs from LAPACK's by rounding only; an iterative one stops at its relative
// residual (1e-9 for the Krylov solvers, 1e-8 for MATM in the shipped settings), and the error
// that leaves is at most the condition number times that.
constexpr double direct_tolerance = 1e-10;
constexpr double iterative_tolerance = 1e-6;
const std::string reference_solver = "lapack";
// OpenBLAS reads its variable when it is loaded, before main: checked, not set.
const std::vector<std::pair<const char*, std::string>> thread_settings{
    {"OMP_NUM_THREADS", "2"}, {"OPENBLAS_NUM_THREADS", "1"}};

struct Case {
  std::string id;     // its folder under WORK_DIR
  std::string label;  // the table's first column
  std::string config;
  std::vector<std::string> overrides;  // --set style, on top of `config`
  std::string result;                  // the file of the run holding the final state
  std::string compared;                // what that file holds, for the docs
  // The case whose reference run this one is compared with; empty: its own. Nothing direct
  // takes a matrix-free operator, so the matrix-free grid is compared with the LAPACK solve
  // of the same grid assembled (the same equations).
  std::string reference_case;
  bool solver_free;  // its integrator takes no linear solver: run once, no comparison
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all{
      {"a1d-trapezoid",
       "angiogenesis-1d (M = 40, 10 steps)",
       "config/angiogenesis-1d.toml",
       {"model.M=40", "integrator.steps=10", "output.every=10"},
       "profiles/step_00000010.csv",
       "C, P, I, F after step 10",
       "",
       false},
      {"a1d-cnab2",
       "angiogenesis-1d (M = 40, 10 steps)",
       "config/angiogenesis-1d.toml",
       {"model.M=40", "integrator.type=imex-cnab2", "integrator.steps=10", "output.every=10"},
       "profiles/step_00000010.csv",
       "C, P, I, F after step 10",
       "",
       false},
      {"a1d-sbdf2",
       "angiogenesis-1d (M = 40, 10 steps)",
       "config/angiogenesis-1d.toml",
       {"model.M=40", "integrator.type=imex-sbdf2", "integrator.steps=10", "output.every=10"},
       "profiles/step_00000010.csv",
       "C, P, I, F after step 10",
       "",
       false},
      // The adaptive integrator in fixed steps: its stages on every solver, with a final
      // state whose file the step count names.
      {"a1d-ark23",
       "angiogenesis-1d (M = 40, 10 steps)",
       "config/angiogenesis-1d.toml",
       {"model.M=40", "integrator.type=imex-ark23", "integrator.adaptive=false",
        "integrator.steps=10", "output.every=10"},
       "profiles/step_00000010.csv",
       "C, P, I, F after step 10",
       "",
       false},
      {"helmholtz",
       "helmholtz (duct, resolution 16)",
       "config/helmholtz-duct.toml",
       {"model.resolution=16"},
       "solution.csv",
       "the complex solution",
       "",
       false},
      {"grid-stencil7",
       "grid-equations-3d (9³, stencil7)",
       "config/matm-poisson.toml",
       {"model.n1=9", "model.n2=9", "model.n3=9"},
       "solution.vti",
       "the solution",
       "",
       false},
      {"grid-matrix-free",
       "grid-equations-3d (9³, matrix-free)",
       "config/matm-poisson.toml",
       {"model.n1=9", "model.n2=9", "model.n3=9", "model.operator=matrix-free"},
       "solution.vti",
       "the solution",
       "grid-stencil7",
       false},
      {"matrix-file",
       "matrix-file (helmholtz-duct.mtx, 81 complex)",
       "config/matrix-file.toml",
       {},
       "solution.csv",
       "the complex solution",
       "",
       false},
      {"a3d",
       "angiogenesis-3d (11³, 10 steps)",
       "config/angiogenesis-3d.toml",
       {"model.nx=11", "model.ny=11", "model.nz=11", "integrator.steps=10",
        "integrator.fields_every=0", "integrator.checkpoint_every=0", "integrator.png=false"},
       "",
       "",
       "",
       true},
  };
  return all;
}

// Combinations that may fail at run time, each for a stated reason: only these, and each must
// go on failing, or the list is out of date. Mathematics that no declared operator form can
// express (validate cannot see whether a matrix is Hermitian). Empty integrator or
// preconditioner: any (of the preconditioners, any that validate accepts: one refused for its
// scalar type, as petsc-pc is on a complex system, never reaches the mathematics listed).
struct ExpectedFailure {
  std::string model, integrator, solver, preconditioner, why;
};
const std::vector<ExpectedFailure> expected_failures{
    {"helmholtz", "", "cg", "",
     "CG needs a Hermitian positive definite matrix; the Helmholtz matrix is complex symmetric "
     "and indefinite"},
    {"matrix-file", "", "cg", "",
     "CG needs a Hermitian positive definite matrix; the shipped matrix is a complex symmetric "
     "Helmholtz matrix"},
};

const ExpectedFailure* expected_failure(const std::string& model, const std::string& integrator,
                                        const std::string& solver, const std::string& pc) {
  for (const auto& e : expected_failures)
    if (e.model == model && (e.integrator.empty() || e.integrator == integrator) &&
        e.solver == solver && (e.preconditioner.empty() || e.preconditioner == pc))
      return &e;
  return nullptr;
}

struct Solver {
  std::string name;
  bool iterative;       // it stops at a residual (its schema has a `tolerance`)
  bool preconditioned;  // uses_preconditioner(): rows with each preconditioner too
};

std::vector<std::string> cpu_plugins(PluginKind kind) {
  std::vector<std::string> names;
  for (const auto& name : solvent::plugins::installed(kind))
    if (solvent::plugins::device_of(name, kind) == "cpu") names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<Solver> cpu_linear_solvers() {
  std::vector<Solver> solvers;
  for (const auto& name : cpu_plugins(PluginKind::LinearSolver)) {
    const auto schema = solvent::plugins::schema_of(name, PluginKind::LinearSolver);
    const bool iterative = std::any_of(schema.begin(), schema.end(),
                                       [](const auto& p) { return p.name == "tolerance"; });
    solvers.push_back(
        {name, iterative, solvent::plugins::make_linear_solver(name)->uses_preconditioner()});
  }
  return solvers;
}

// A Markdown cell: one line, no column separator.
std::string cell(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  for (auto i = s.find('|'); i != std::string::npos; i = s.find('|', i + 2)) s.insert(i, "\\");
  return s;
}

// A problem as the framework words it, without the file:line:col (or "--set") it starts with:
// the file is a temporary one.
std::string without_location(const std::string& problem) {
  static const std::regex location(R"(^(--set|.*?:\d+:\d+): )");
  return std::regex_replace(problem, location, "", std::regex_constants::format_first_only);
}

// A run-time error's first clause says what went wrong; the rest points into the run's
// folder (its unconverged iterate), which the table does not keep.
std::string first_clause(const std::string& message) {
  return message.substr(0, message.find("; "));
}

// The numbers of a final state or solution: every column of the CSV but the first (the grid
// coordinate or the index); complex values as their real and imaginary parts.
// The values of a .vti the core wrote in its default form: one Float64 array, raw appended
// after the '_' that follows <AppendedData encoding="raw">, behind its UInt64 byte count.
std::vector<double> read_vti(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto raw = text.find("<AppendedData encoding=\"raw\">");
  if (raw == std::string::npos || text.find("type=\"Float64\"") == std::string::npos)
    throw std::runtime_error(fmt::format("{} holds no raw Float64 array", file.string()));
  const auto at = text.find('_', raw) + 1;
  std::uint64_t bytes = 0;
  std::memcpy(&bytes, text.data() + at, sizeof bytes);
  if (at + sizeof bytes + bytes > text.size())
    throw std::runtime_error(fmt::format("{} is cut short", file.string()));
  std::vector<double> values(bytes / sizeof(double));
  std::memcpy(values.data(), text.data() + at + sizeof bytes, bytes);
  return values;
}

std::vector<double> read_state(const fs::path& file) {
  if (file.extension() == ".vti" && fs::exists(file)) return read_vti(file);
  std::ifstream in(file);
  if (!in) throw std::runtime_error(fmt::format("the run wrote no {}", file.filename().string()));
  std::string line;
  std::getline(in, line);
  std::vector<double> values;
  while (std::getline(in, line)) {
    std::stringstream rest(line.substr(line.find(',') + 1));
    for (std::string c; std::getline(rest, c, ',');) values.push_back(std::stod(c));
  }
  return values;
}

// ||x - ref|| / ||ref||; NaN when the sizes differ, so that it never passes a tolerance.
double relative_difference(const std::vector<double>& x, const std::vector<double>& ref) {
  if (x.size() != ref.size()) return std::nan("");
  double d2 = 0, r2 = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    d2 += (x[i] - ref[i]) * (x[i] - ref[i]);
    r2 += ref[i] * ref[i];
  }
  return std::sqrt(d2 / r2);
}

// A tolerance as the docs write it: 1e-6, not printf's 1e-06.
std::string number(double v) {
  auto s = fmt::format("{:g}", v);
  if (const auto i = s.find("e-0"); i != std::string::npos) s.erase(i + 2, 1);
  return s;
}

// Two buckets, where no run comes near a boundary, so that the table is the same text on every
// run: rounding (the direct solvers, and iterative ones whose preconditioner solves almost
// exactly) and the iterative tolerance. Iterative solves stop at a residual of 1e-9 and their
// differences scatter around 1e-9: a boundary there would flip with one iteration more.
std::string bucket(double d) {
  for (double b : {1e-12, iterative_tolerance})
    if (d <= b) return "≤ " + number(b);
  return fmt::format("{:.1e}", d);  // a disagreement: the test fails anyway
}

struct Attempt {
  std::optional<std::string> refused;  // the first problem validate reports
  std::optional<std::string> failed;   // the run's error
};

// The same two steps as `solvent validate` and `solvent run`, on `file` with `overrides`.
Attempt attempt(const fs::path& file, const std::vector<std::string>& overrides,
                const fs::path& out) {
  try {
    const auto cfg = solvent::resolve_config(solvent::load_config_document(file, overrides));
    const auto problems = solvent::combination_problems(cfg, solvent::create_plugins(cfg));
    if (!problems.empty()) return {without_location(problems.front()), std::nullopt};
  } catch (const solvent::ConfigError& e) {
    return {without_location(e.problems().front()), std::nullopt};
  }
  solvent::RunOptions opt;
  opt.config = file;
  opt.overrides = overrides;
  opt.output_dir = out;
  opt.overwrite = true;
  opt.progress = solvent::ProgressMode::Never;
  opt.argv = {"solvent-combinations"};
  try {
    solvent::run_experiment(opt);
  } catch (const solvent::Error& e) {
    return {std::nullopt, first_clause(e.what())};
  }
  return {};
}

// The case's configuration without its [preconditioner]: `--set` can add that section
// (preconditioner.type=...) but not remove it, and every solver also runs without one.
fs::path write_case_file(const Case& c, const fs::path& work) {
  auto doc = solvent::load_config_document(c.config, c.overrides);
  doc.table.erase("preconditioner");
  // The model's input files are relative to the configuration's folder: the copy, written
  // elsewhere, names them as the core resolved them (absolute).
  const auto cfg = solvent::resolve_config(doc);
  for (const auto& spec : cfg.model->plugin->descriptor->schema())
    if (spec.reads_file && cfg.model->params.given(spec.name))
      doc.table["model"].as_table()->insert_or_assign(spec.name,
                                                      cfg.model->params.string(spec.name));
  const fs::path dir = work / c.id;
  fs::create_directories(dir);
  const fs::path file = dir / "case.toml";
  std::ofstream(file) << doc.table << '\n';
  return file;
}

struct Row {
  std::string label, integrator, solver, preconditioner, outcome, difference;
};

struct Table {
  std::vector<Row> rows;
  std::vector<std::string> failures;  // why the program exits 1, one line each

  void fail(const Row& r, const std::string& why) {
    failures.push_back(fmt::format("{} / {} / {} / {}: {}", r.label, r.integrator, r.solver,
                                   r.preconditioner, why));
  }
};

class Runner {
 public:
  explicit Runner(fs::path work) : work_(std::move(work)) {}

  void run_case(const Case& c, Table& t) {
    const fs::path file = write_case_file(c, work_);
    const auto cfg = solvent::resolve_config(solvent::load_config_document(file, {}));
    const std::string model = cfg.model->plugin->descriptor->name;
    const std::string integrator = cfg.integrator->plugin->descriptor->name;
    if (c.solver_free) return solver_free_case(c, file, integrator, t);

    if (c.reference_case.empty()) {
      const auto a = attempt(file, {"linear_solver.type=" + reference_solver},
                             run_dir(c, reference_solver, ""));
      if (a.refused || a.failed)
        throw std::runtime_error(fmt::format("{}: the reference run ({}) did not complete: {}",
                                             c.label, reference_solver,
                                             a.refused ? *a.refused : *a.failed));
      references_[c.id] = read_state(run_dir(c, reference_solver, "") / c.result);
    }
    const auto& reference = references_.at(c.reference_case.empty() ? c.id : c.reference_case);

    for (const auto& s : solvers_) {
      std::vector<std::string> preconditioners{""};
      if (s.preconditioned) preconditioners.insert(preconditioners.end(), pcs_.begin(), pcs_.end());
      for (const auto& pc : preconditioners) {
        Row r{c.label, integrator, s.name, pc.empty() ? "none" : pc, "", "—"};
        if (c.reference_case.empty() && s.name == reference_solver && pc.empty()) {
          r.outcome = "reference";
          t.rows.push_back(r);
          continue;
        }
        std::vector<std::string> overrides{"linear_solver.type=" + s.name};
        if (!pc.empty()) overrides.push_back("preconditioner.type=" + pc);
        const fs::path out = run_dir(c, s.name, pc);
        const auto a = attempt(file, overrides, out);
        const auto* expected = expected_failure(model, integrator, s.name, pc);
        if (a.refused) {
          r.outcome = "refused by validate: " + *a.refused;
          if (expected && !expected->preconditioner.empty())
            t.fail(r, "listed as an expected run-time failure, but refused by validate");
        } else if (a.failed && expected) {
          r.outcome =
              fmt::format("fails at run time, as expected ({}): {}", expected->why, *a.failed);
        } else if (a.failed) {
          r.outcome = "fails at run time: " + *a.failed;
          t.fail(r, "unexpected run-time failure: " + *a.failed);
        } else {
          compare(r, out / c.result, reference, s.iterative, t);
          if (expected) t.fail(r, "listed as an expected run-time failure, but it ran");
        }
        t.rows.push_back(r);
      }
    }
  }

 private:
  fs::path run_dir(const Case& c, const std::string& solver, const std::string& pc) const {
    return work_ / c.id / (pc.empty() ? solver : solver + "-" + pc);
  }

  static void compare(Row& r, const fs::path& result, const std::vector<double>& reference,
                      bool iterative, Table& t) {
    double d = 0;
    try {
      d = relative_difference(read_state(result), reference);
    } catch (const std::exception& e) {
      r.outcome = fmt::format("completes, but {}", e.what());
      return t.fail(r, r.outcome);
    }
    const double tolerance = iterative ? iterative_tolerance : direct_tolerance;
    r.difference = bucket(d);
    if (d <= tolerance) {
      r.outcome = "agrees";
      return;
    }
    r.outcome = fmt::format("DISAGREES (tolerance {})", number(tolerance));
    t.fail(r, fmt::format("completes, but differs from the reference by {:.3e} (tolerance {})", d,
                          number(tolerance)));
  }

  // An integrator that takes no linear solver: it must run as configured, and validate must
  // refuse every linear solver added to it.
  void solver_free_case(const Case& c, const fs::path& file, const std::string& integrator,
                        Table& t) {
    Row r{c.label, integrator, "—", "—", "", "—"};
    const auto a = attempt(file, {}, work_ / c.id / "run");
    std::optional<std::string> refusal;
    for (const auto& s : solvers_) {
      const auto with = attempt(file, {"linear_solver.type=" + s.name}, work_ / c.id / s.name);
      if (!with.refused) t.fail(r, fmt::format("linear solver '{}' is not refused", s.name));
      if (!refusal && with.refused) refusal = with.refused;
    }
    if (a.refused || a.failed) {
      r.outcome = "does not run: " + (a.refused ? *a.refused : *a.failed);
      t.fail(r, r.outcome);
    } else {
      r.outcome = fmt::format("runs without a linear solver; with any, refused by validate: {}",
                              refusal.value_or("(none refused)"));
    }
    t.rows.push_back(r);
  }

  fs::path work_;
  std::vector<Solver> solvers_ = cpu_linear_solvers();
  std::vector<std::string> pcs_ = cpu_plugins(PluginKind::Preconditioner);
  std::map<std::string, std::vector<double>> references_;
};

std::string join_code(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "`" : " `") + i + "`";
  return s.empty() ? "—" : s;
}

void print(const Table& t) {
  std::printf("| case | configuration | overrides | compared |\n|---|---|---|---|\n");
  for (const auto& c : cases()) {
    std::string compared = c.solver_free ? "— (no linear solver)" : c.compared;
    if (!c.reference_case.empty())
      for (const auto& other : cases())
        if (other.id == c.reference_case)
          compared += fmt::format(", against the reference run of {}", other.label);
    std::printf("| %s | `%s` | %s | %s |\n", c.label.c_str(), c.config.c_str(),
                join_code(c.overrides).c_str(), compared.c_str());
  }
  std::printf(
      "\nEvery case runs without the configuration's `[preconditioner]`, and with each CPU "
      "preconditioner for the solvers that apply one. Reference: `%s` without a "
      "preconditioner. Agreement: relative 2-norm difference of the compared state at most %s "
      "for a direct solver, %s for an iterative one (a solver with a `tolerance`); the table "
      "shows whether it is within rounding (≤ 1e-12) or within %s.\n\n",
      reference_solver.c_str(), number(direct_tolerance).c_str(),
      number(iterative_tolerance).c_str(), number(iterative_tolerance).c_str());
  std::printf(
      "| case | integrator | linear solver | preconditioner | outcome | difference |\n"
      "|---|---|---|---|---|---|\n");
  for (const auto& r : t.rows)
    std::printf("| %s | %s | %s | %s | %s | %s |\n", r.label.c_str(), r.integrator.c_str(),
                r.solver.c_str(), r.preconditioner.c_str(), cell(r.outcome).c_str(),
                r.difference.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: solvent-combinations SOURCE_DIR WORK_DIR\n");
    return 2;
  }
  std::string required;
  bool given = true;
  for (const auto& [variable, value] : thread_settings) {
    required += fmt::format(" {}={}", variable, value);
    const char* v = std::getenv(variable);
    given = given && v != nullptr && v == value;
  }
  if (!given) {
    std::fprintf(stderr,
                 "solvent-combinations: the table is that of%s; run it so, as "
                 "scripts/update-combinations does\n",
                 required.c_str());
    return 2;
  }
  try {
    const fs::path work = fs::absolute(argv[2]);
    // The cases' configurations are named from the source tree's root (config/...).
    fs::current_path(argv[1]);
    // A hundred runs' info lines would bury the table's failures.
    solvent::core_logger()->set_level(spdlog::level::warn);
    Runner runner(work);
    Table t;
    for (const auto& c : cases()) runner.run_case(c, t);
    print(t);
    for (const auto& f : t.failures) std::fprintf(stderr, "FAILED: %s\n", f.c_str());
    return t.failures.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "solvent-combinations: %s\n", e.what());
    return 1;
  }
}
