#include "src/explicit_stencil3d.hpp"

#include "src/png_projection.hpp"
#include "src/rank_blocks.hpp"
#include "src/stability.hpp"
#include "src/snapshot_output.hpp"

#include <solvent/device/rank_device.hpp>
#include <solvent/errors.hpp>
#include <solvent/grid/grid_blocks.hpp>
#include <solvent/io/output.hpp>
#ifdef SOLVENT_STENCIL3D_HAVE_CUDA
#include <solvent/device/cuda.hpp>
#endif
#include <solvent_family_angiogenesis_3d/parameters.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>
#include <span>

namespace solvent::stencil3d {
namespace {

namespace fs = std::filesystem;
using solvent::write_file_atomic;

// The share of the movement probabilities evaluated so far that lay outside [0, 1].
double bad_share(const NetworkCounters& n) {
  return n.probabilities > 0
             ? static_cast<double>(n.bad_probabilities) / static_cast<double>(n.probabilities)
             : 0.0;
}

std::vector<solvent::Observable> observables(const NetworkCounters& n, double h) {
  return {{"tips", static_cast<double>(n.active)},
          {"sprouts", static_cast<double>(n.tips)},
          {"branches", static_cast<double>(n.branches)},
          {"anastomoses", static_cast<double>(n.anastomoses)},
          {"vessel_length", n.segments * h},
          {"furthest_x", n.furthest_i * h},
          {"bad_probabilities", static_cast<double>(n.bad_probabilities)},
          {"bad_probability_share", bad_share(n)}};
}

void add_probability_facts(solvent::Facts& facts, const NetworkCounters& n) {
  facts.emplace_back("probabilities", std::to_string(n.probabilities));
  facts.emplace_back("bad_probabilities", std::to_string(n.bad_probabilities));
  facts.emplace_back("bad_probability_share", fmt::format("{:.6g}", bad_share(n)));
}

// Calls use(the whole state) where it is: on one rank the engine's state itself; over
// several, on rank 0 after it has gathered every rank's block (the others send theirs and
// call nothing). Every rank calls it together. Only the PNG, a projection of the whole
// network at the end, takes it; checkpoints and fields are written by every rank.
template <class Use>
void with_whole_state(const SimulationState& part, const solvent::GridBlocks* blocks,
                      const solvent::Communicator& comm, Use&& use) {
  if (!blocks)
    use(part);
  else if (const auto whole = gather_whole(part, *blocks, comm))
    use(*whole);
}

}  // namespace

namespace {
int gpus_on_host() {
#ifdef SOLVENT_STENCIL3D_HAVE_CUDA
  return solvent::cuda::available_devices();
#else
  return 0;
#endif
}
}  // namespace

// The device is settled when the integrator is made, so a bad `device` is refused with the
// configuration, before the run's folder exists.
ExplicitStencil3d::ExplicitStencil3d(const solvent::PluginContext& ctx)
    : q_(ctx.params),
      device_(solvent::rank_device(q_.string("device"), *ctx.comm, gpus_on_host(),
                                   "explicit-stencil3d")) {}

bool ExplicitStencil3d::accepts(solvent::Model& model, std::string& why) const {
  if (solvent::family<solvent::angiogenesis_3d::ParametersFamily>(model)) return true;
  why = fmt::format("the model does not offer the '{}' parameter block",
                    solvent::angiogenesis_3d::ParametersFamily::name);
  return false;
}

std::optional<std::int64_t> ExplicitStencil3d::checkpoint_step(const fs::path& dir) const {
  return solvent::stencil3d::checkpoint_step(dir);
}

solvent::RunResult ExplicitStencil3d::run(solvent::Model& model, solvent::LinearSolver*,
                                          solvent::RunContext& ctx) {
  const auto& p = *solvent::family<solvent::angiogenesis_3d::ParametersFamily>(model);
  const double dt = q_.real("dt");
  const std::int64_t steps = q_.integer("steps");
  const std::int64_t fields_every = q_.integer("fields_every");
  const std::int64_t checkpoint_every = q_.integer("checkpoint_every");
  const double max_bad_share = q_.real("max_bad_probability_share");
  const int threads = static_cast<int>(q_.integer("threads"));
  auto* log = ctx.log;
  solvent::PhaseTimer own_timer;
  solvent::PhaseTimer& timer = ctx.timer ? *ctx.timer : own_timer;
  const solvent::Communicator& comm = *ctx.comm;
  // Over several ranks: the model's blocks (docs/architecture.md, "The stencil over
  // ranks"); each rank checks and writes its block of the fields and its part of the
  // checkpoint, and rank 0 writes the PNG from the whole state it gathers.
  const auto* blocks = solvent::family<solvent::angiogenesis_3d::BlocksFamily>(model);
  if (comm.size() > 1 && !blocks)
    throw solvent::Error("explicit-stencil3d: over several ranks the model must give its blocks");
  const bool continuous = p.mode == solvent::angiogenesis_3d::Mode::Continuous;

  // This rank's part of the state: the whole grid on one rank; over several, its window
  // (decide() reads owner within density_radius of a tip and f, c one node away; the
  // continuous update n, f and c one node away). Every
  // rank reads its part of a checkpoint from its own file, written by the same rank.
  const Box grid = whole_grid(solvent::angiogenesis_3d::grid_of(p));
  const int depth =
      continuous ? 1 : static_cast<int>(std::max<std::int64_t>(1, p.density_radius));
  const Box block = blocks ? block_box(*blocks, comm.rank()) : grid;
  const Box window = blocks ? window_box(*blocks, comm.rank(), depth) : grid;
  SimulationState state;
  if (ctx.resume_from) {
    state = restore_checkpoint(*ctx.resume_from, p, dt, ctx.seed, block, window, comm);
  } else {
    state = initial_part(p, dt, ctx.seed, static_cast<std::int32_t>(q_.integer("max_segments")),
                         block, window);
  }

  // The checks of the whole state, each rank on its block: every rank reaches the same
  // verdict, and all of them refuse together.
  check_fields(state, threads, comm);
  const StabilityLimit limit = stability_limit(state, threads, comm);
  facts_ = {{"dt_limit", fmt::format("{:.6g}", limit.dt)}, {"dt_limit_reason", limit.reason}};
  if (dt > limit.dt) {
    const auto message = fmt::format(
        "integrator.dt = {:g} exceeds the explicit stability limit {:.6g} of this grid and state "
        "({}); use dt <= {:.6g} or set integrator.force_dt = true",
        dt, limit.dt, limit.reason, limit.dt);
    // A resumed run continues the one that wrote the checkpoint, which only warned once its
    // state had moved past the limit (below): refused here, a run interrupted after that
    // point could never be continued.
    if (ctx.resume_from) {
      if (log) log->warn("explicit-stencil3d: at step {} {} (as the interrupted run went on)",
                         state.step, message);
    } else {
      if (!q_.boolean("force_dt")) throw solvent::ConfigError({message});
      if (log) log->warn("{} (forced)", message);
    }
  }

  // Each rank its own engine: both grow the identical network from the same decisions, so
  // CPU and CUDA ranks mix in one run.
  std::unique_ptr<StencilEngine> engine;
  // Whether every rank makes a CUDA engine: only then may their faces go GPU to GPU.
  double cpu_ranks = device_ == solvent::RankDevice::Cuda ? 0.0 : 1.0;
  if (comm.size() > 1) comm.max(std::span<double>(&cpu_ranks, 1));
  if (device_ == solvent::RankDevice::Cuda) {
#ifdef SOLVENT_STENCIL3D_HAVE_CUDA
    engine = make_cuda_engine(comm, field_blocks(q_.string("cuda_block"), "integrator.cuda_block"),
                              blocks, cpu_ranks == 0.0);
#else
    throw solvent::DeviceUnavailable(
        "explicit-stencil3d: device = \"cuda\" but this build has no CUDA support");
#endif
  } else {
    engine = make_cpu_engine(comm, blocks);
  }
  facts_.emplace_back("device", engine->device_name());
  if (comm.size() > 1) {
    facts_.emplace_back("device_each_rank",
                        fmt::format("{}", fmt::join(comm.gather_all(engine->device_name()), ", ")));
  }
  if (log)
    log->info("explicit-stencil3d: {}x{}x{} nodes on {}, dt = {:g} (limit {:.6g}), from step {}",
              p.nx, p.ny, p.nz, engine->device_name(), dt, limit.dt, state.step);
  if (blocks && log)
    log->info("explicit-stencil3d: {}x{}x{} blocks over {} ranks, each with {} nodes around it",
              blocks->split[0], blocks->split[1], blocks->split[2], comm.size(), depth);

  {
    auto scope = timer.measure("upload");
    engine->load(state);
  }
  // The continuous mode has no tips to count, and its fields stay on the device between
  // outputs: its rows hold the step and time only.
  const auto step_observables = [&](const NetworkCounters& n) {
    return continuous ? std::vector<solvent::Observable>{} : observables(n, p.h);
  };
  if (ctx.observer) {
    const auto obs = step_observables(state.counters);
    ctx.observer->on_step({state.step, steps, state.step * dt, dt}, {}, obs);
  }
  std::int64_t step = state.step;
  double dt_limit_min = limit.dt;
  bool reached = state.counters.furthest_i * p.h >= p.stop_x;
  while (step < steps && !reached) {
    NetworkCounters counters;
    {
      auto scope = timer.measure("step");
      engine->step();
      counters = engine->counters();
    }
    ++step;
    if (counters.overflow)
      throw solvent::SolverError(fmt::format(
          "explicit-stencil3d: the network outgrew its store at step {} (integrator.max_segments "
          "= {}); raise max_segments",
          step, q_.integer("max_segments")));
    if (ctx.observer) {
      const auto obs = step_observables(counters);
      ctx.observer->on_step({step, steps, step * dt, dt}, {}, obs);
    }
    // The tips' coefficients are evaluated on this step's c and f, so this guard follows
    // the fields as the vessels change them; force_dt does not lift it.
    if (bad_share(counters) > max_bad_share) {
      add_probability_facts(facts_, counters);
      throw solvent::DivergenceError(fmt::format(
          "explicit-stencil3d: at step {} (t = {:.6g}) {} of the {} movement probabilities "
          "evaluated so far ({:.4g}) lay outside [0, 1], more than "
          "integrator.max_bad_probability_share = {:g} (criterion: 0 <= P0..P6 <= 1 at every "
          "tip); reduce dt if P0 < 0, refine h if taxis outweighs diffusion; output up to step "
          "{} is kept",
          step, step * dt, counters.bad_probabilities, counters.probabilities, bad_share(counters),
          max_bad_share, step - 1));
    }
    reached = counters.furthest_i * p.h >= p.stop_x;
    const bool last = step == steps || reached;
    const bool snapshot = last || (fields_every > 0 && step % fields_every == 0);
    const bool checkpoint = last || (checkpoint_every > 0 && step % checkpoint_every == 0);
    if (snapshot || checkpoint) {
      auto scope = timer.measure("output");
      engine->store(state);
      check_fields(state, threads, comm);
      // The step limit again, on the fields the vessels have changed since the start.
      const auto now = stability_limit(state, threads, comm);
      dt_limit_min = std::min(dt_limit_min, now.dt);
      if (dt > now.dt && log)
        log->warn(
            "explicit-stencil3d: at step {} dt = {:g} exceeds the step limit {:.6g} of "
            "the current state ({})",
            step, dt, now.dt, now.reason);
      if (last && !continuous && q_.boolean("png"))
        with_whole_state(state, blocks, comm, [&](const SimulationState& whole) {
          write_file_atomic(ctx.output_dir / "network.png", network_png(whole));
        });
      // The fields by the ranks that hold them, through the core's writer.
      if (snapshot && ctx.fields) {
        write_fields(state, *ctx.fields);
        write_network(state, comm, *ctx.fields);
      }
      // Last: a resume continues after the step of its checkpoint and writes none of that
      // step's files again, so a process killed between them must find the checkpoint
      // before, not one whose step's fields or series entries are missing.
      if (checkpoint) write_checkpoint(ctx.output_dir, state, comm);
    }
  }
  if (reached && log)
    log->info("explicit-stencil3d: a tip reached x >= {:g} at step {}", p.stop_x, step);
  facts_.emplace_back("dt_limit_min", fmt::format("{:.6g}", dt_limit_min));
  // The network is the same on every rank; how often it crossed between blocks says how
  // much of it the ranks' exchange of decisions carried.
  if (blocks)
    facts_.emplace_back("segments_between_blocks",
                        std::to_string(segments_between_blocks(state, *blocks)));
  add_probability_facts(facts_, engine->counters());
  return {step, step * dt, {}};
}

}  // namespace solvent::stencil3d
