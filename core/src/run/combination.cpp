#include "run/combination.hpp"

#include "io/vtkhdf_writer.hpp"
#include "loader/plugin_library.hpp"
#include "log/logging.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>

namespace solvent {

PluginContext context_for(const ResolvedRole& r, const Communicator& comm) {
  return PluginContext{r.params, core_logger(), &comm};
}

namespace {

const char* name_of(const ResolvedRole& r) { return r.plugin->descriptor->name; }
const char* device_of(const ResolvedRole& r) { return r.plugin->descriptor->device; }

std::string why_unreachable(OperatorForm given, const std::vector<OperatorForm>& forms) {
  if (forms.empty()) return "it declares no operator form at all";
  std::string why = fmt::format("it takes {}", describe_forms(forms));
  if (given.kind == OperatorKind::MatrixFree)
    return why + ", and a matrix-free operator has no entries to convert";
  bool same_scalar = false;
  for (const auto& f : forms) same_scalar = same_scalar || f.scalar == given.scalar;
  if (!same_scalar) return why + fmt::format(", none of them {}", to_string(given.scalar));
  return why + fmt::format(", and the core converts a {} operator only to csr, dense or banded",
                           to_string(given.kind));
}
}  // namespace

namespace {

// SOLVENT_TEST_RANK_SPEED = "RANK:SPEED[,RANK:SPEED...]", for tests only: the speeds (nodes
// a second) that a run balanced by measured speed takes for those ranks instead of
// measuring them, so that a test can make a rank slow on any machine, and balance with a
// solver that has no calibration. 0 for a rank not given.
std::vector<double> test_rank_speeds(int ranks) {
  std::vector<double> speeds(static_cast<std::size_t>(ranks), 0.0);
  const char* text = std::getenv("SOLVENT_TEST_RANK_SPEED");
  if (!text) return speeds;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    int rank = -1;
    double speed = 0.0;
    int used = 0;
    if (std::sscanf(item.c_str(), "%d:%lf%n", &rank, &speed, &used) != 2 ||
        used != int(item.size()) || rank < 0 || rank >= ranks || !(speed > 0.0) ||
        !std::isfinite(speed))
      throw ConfigError({fmt::format(
          "SOLVENT_TEST_RANK_SPEED=\"{}\": \"{}\" is not RANK:SPEED with a rank below {} and "
          "a positive speed",
          text, item, ranks)});
    speeds[static_cast<std::size_t>(rank)] = speed;
  }
  return speeds;
}

}  // namespace

PluginSet create_plugins(const ResolvedConfig& cfg, const Communicator& comm, PhaseTimer* timer) {
  PluginSet p;
  // The part under way, timed as its phase when there is a timer.
  std::optional<PhaseTimer::Scope> part;
  const auto enter = [&](const char* phase) {
    part.reset();
    if (timer) part.emplace(*timer, phase);
  };
  enter("plugins");
  // The solver first: a model balanced by measured speed sizes its blocks by the solver's.
  if (cfg.linear_solver)
    p.linear_solver =
        create_linear_solver(*cfg.linear_solver->plugin, context_for(*cfg.linear_solver, comm));
  auto model_context = context_for(*cfg.model, comm);
  if (cfg.run.string("balance") == "measured" && comm.size() > 1) {
    enter("calibration");
    if (!p.linear_solver)
      throw ConfigError(
          {"[run] balance = \"measured\" sizes the blocks by the linear solver's "
           "speed, but the run has no [linear_solver]"});
    // Every rank measures; a rank whose solver has no calibration sends 0, so all ranks
    // learn it together and refuse together. A speed the tests give in place of a rank's
    // (test_rank_speeds) is not measured.
    std::vector<double> speeds(static_cast<std::size_t>(comm.size()), 0.0);
    const auto given = test_rank_speeds(comm.size());
    const auto mine = static_cast<std::size_t>(comm.rank());
    speeds[mine] = given[mine] > 0.0 ? given[mine] : p.linear_solver->measured_speed();
    comm.sum(std::span<double>(speeds));
    for (std::size_t r = 0; r < speeds.size(); ++r)
      if (!(speeds[r] > 0.0))
        throw ConfigError({fmt::format(
            "{}: [run] balance = \"measured\", but linear solver '{}' measured no speed on "
            "rank {}; it has no calibration (use balance = \"even\")",
            cfg.linear_solver->where, name_of(*cfg.linear_solver), r)});
    model_context.rank_speeds = speeds;
    // The links before the blocks exist: each rank with the ranks before and after it, which
    // a split along one axis makes its neighbours, at a face of 128 x 256 values.
    const int peers[2] = {comm.rank() - 1, comm.rank() + 1 < comm.size() ? comm.rank() + 1 : -1};
    model_context.rank_link = measure_links(comm, peers, 128 * 256);
    model_context.exchanges = p.linear_solver->exchanges_per_iteration();
    p.rank_speeds = std::move(speeds);
  }
  enter("model");
  p.model = create_model(*cfg.model->plugin, model_context);
  enter("plugins");
  p.integrator = create_integrator(*cfg.integrator->plugin, context_for(*cfg.integrator, comm));
  if (cfg.preconditioner)
    p.preconditioner =
        create_preconditioner(*cfg.preconditioner->plugin, context_for(*cfg.preconditioner, comm));
  return p;
}

namespace {

// The conversion guard of LinearSolver::setup, checked before anything is assembled where
// the model knows its size from its layout (the grid models, the 1D model): a solver of
// dense storage on a sparse system of n unknowns needs n^2 scalars. Banded widths are
// known only once the operator exists; a model without a layout (a mesh) is met by the
// guard itself, at the first setup.
std::optional<std::string> dense_conversion_problem(const ResolvedConfig& cfg, Model& model,
                                                    OperatorForm system, OperatorForm solver) {
  if (solver.kind != OperatorKind::Dense || system.kind == OperatorKind::Dense) return std::nullopt;
  std::optional<FieldLayout> layout;
  if (model.linear())
    layout = model.linear()->layout();
  else if (model.imex())
    layout = model.imex()->layout();
  if (!layout || layout->size() == 0) return std::nullopt;
  const double n = double(layout->size());
  const double bytes = n * n * (solver.scalar == ScalarKind::Complex ? 16.0 : 8.0);
  const double limit_mib = cfg.solver_core.real("max_conversion_mib");
  if (bytes <= limit_mib * double(1 << 20)) return std::nullopt;
  const auto& solver_role = *cfg.linear_solver;
  return fmt::format(
      "{}: linear solver '{}' takes dense storage: the {} system of {} unknowns would take "
      "{:.1f} MiB as a dense matrix, more than [linear_solver] max_conversion_mib = {}; choose "
      "a solver that keeps it sparse, or raise the limit",
      solver_role.where, name_of(solver_role), to_string(system.kind), layout->size(),
      bytes / double(1 << 20), limit_mib);
}

}  // namespace

std::vector<std::string> combination_problems(const ResolvedConfig& cfg, const PluginSet& p) {
  std::vector<std::string> problems;
  // What this build can write, beside what the plugins can do together.
  if (cfg.output.string("format") == "vtkhdf" && !vtkhdf_available()) {
    const auto& entry = cfg.output.entries().at("format");
    problems.push_back(fmt::format(
        "{}: [output] format = \"vtkhdf\": this Solvent was built without HDF5 (CMake found no "
        "HDF5, or no parallel HDF5 for its MPI), so it cannot write VTKHDF; use format = "
        "\"vtk\", or rebuild where libhdf5-openmpi-dev is installed",
        entry.where.empty() ? cfg.file.string() : entry.where));
  }
  const auto& integrator = *cfg.integrator;
  std::string why;
  if (!p.integrator->accepts(*p.model, why)) {
    problems.push_back(fmt::format("{}: integrator '{}' cannot advance model '{}': {}",
                                   integrator.where, name_of(integrator), name_of(*cfg.model),
                                   why));
    return problems;
  }
  const bool needs = p.integrator->needs_linear_solver();
  if (needs && !p.linear_solver)
    problems.push_back(fmt::format("{}: integrator '{}' needs a [linear_solver] section",
                                   integrator.where, name_of(integrator)));
  if (!needs && p.linear_solver)
    problems.push_back(
        fmt::format("{}: integrator '{}' uses no linear solver; remove [linear_solver] (and any "
                    "[preconditioner])",
                    cfg.linear_solver->where, name_of(integrator)));
  if (!p.linear_solver || !needs) return problems;

  const auto& solver = *cfg.linear_solver;
  const auto system = p.integrator->system_form(*p.model);
  std::optional<OperatorForm> solver_form;
  if (system) {
    solver_form = reachable_form(p.linear_solver->forms(), *system);
    if (!solver_form)
      problems.push_back(fmt::format(
          "{}: linear solver '{}' cannot solve the {} {} system that integrator '{}' builds for "
          "model '{}': {}",
          solver.where, name_of(solver), to_string(system->scalar), to_string(system->kind),
          name_of(integrator), name_of(*cfg.model),
          why_unreachable(*system, p.linear_solver->forms())));
  }
  if (solver_form && system) {
    if (auto problem = dense_conversion_problem(cfg, *p.model, *system, *solver_form))
      problems.push_back(*problem);
  }
  // A split the solver's method cannot follow (MATM's sweeps along an axis cut over ranks).
  if (const auto layout = p.model->linear() ? p.model->linear()->layout() : std::nullopt;
      layout && layout->block)
    if (auto why = p.linear_solver->blocks_problem(layout->block->blocks); !why.empty())
      problems.push_back(
          fmt::format("{}: linear solver '{}' cannot solve model '{}' in its "
                      "blocks: {}",
                      solver.where, name_of(solver), name_of(*cfg.model), why));
  if (cfg.fallback_solver && system) {
    const auto fallback =
        create_linear_solver(*cfg.fallback_solver->plugin, context_for(*cfg.fallback_solver));
    if (!reachable_form(fallback->forms(), *system))
      problems.push_back(fmt::format(
          "{}: the fallback linear solver '{}' cannot solve the {} {} system of integrator '{}': "
          "{}",
          solver.where, cfg.fallback, to_string(system->scalar), to_string(system->kind),
          name_of(integrator), why_unreachable(*system, fallback->forms())));
  }
  if (!p.preconditioner) return problems;
  const auto& pc = *cfg.preconditioner;
  if (!p.linear_solver->uses_preconditioner()) return problems;  // a note, not a problem
  if (std::string(device_of(pc)) != device_of(solver))
    problems.push_back(fmt::format(
        "{}: preconditioner '{}' runs on {} but linear solver '{}' on {}: both must work in the "
        "same memory",
        pc.where, name_of(pc), device_of(pc), name_of(solver), device_of(solver)));
  if (solver_form && !reachable_form(p.preconditioner->forms(), *solver_form))
    problems.push_back(fmt::format(
        "{}: preconditioner '{}' cannot be built from the {} {} operator linear solver '{}' "
        "works on: {}",
        pc.where, name_of(pc), to_string(solver_form->scalar), to_string(solver_form->kind),
        name_of(solver), why_unreachable(*solver_form, p.preconditioner->forms())));
  return problems;
}

std::vector<std::string> combination_notes(const ResolvedConfig& cfg, const PluginSet& p) {
  std::vector<std::string> notes;
  if (p.preconditioner && p.linear_solver && !p.linear_solver->uses_preconditioner())
    notes.push_back(fmt::format(
        "{}: preconditioner '{}' is not used: linear solver '{}' applies none (it solves "
        "directly)",
        cfg.preconditioner->where, name_of(*cfg.preconditioner), name_of(*cfg.linear_solver)));
  return notes;
}

}  // namespace solvent
