#include "src/batched_members.hpp"

#include "src/imex_stepper.hpp"
#include "src/implicit_system.hpp"

#include <solvent/direct_solver.hpp>
#include <solvent/io/checkpoint.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <future>

namespace solvent::imex {

namespace af = solvent::angiogenesis_1d;

Schema batched_schema() {
  Schema s = common_schema();
  // A [sweep] batches only members of this integrator (core/src/sweep/batched_groups.cpp).
  s.push_back(ParamSpec::choice("scheme", "imex-trapezoid", {"imex-trapezoid"},
                                "the single-run integrator whose steps the batch takes: a "
                                "[sweep] batches only its members (adaptive imex-ark23 members "
                                "take steps of their own and run one by one)"));
  s.push_back(std::move(
      ParamSpec::integer("report_every", 1,
                         "report every member's state and observables to its observer every this "
                         "many steps (and at the last step); 1 reports every step as a single run "
                         "does, more saves copying B states off the device between")
          .at_least(1)));
  return s;
}

BatchedImexIntegrator::BatchedImexIntegrator(const PluginContext& ctx, const char* name,
                                             EngineFactory engine)
    : name_(name),
      engine_(engine),
      dt_(ctx.params.real("dt")),
      steps_(ctx.params.integer("steps")),
      report_every_(ctx.params.integer("report_every")),
      projection_(ctx.params.boolean("projection")),
      projection_limit_(ctx.params.real("projection_limit")) {}

bool BatchedImexIntegrator::accepts(Model& model, std::string& why) const {
  const auto* member = family<af::MemberFamily>(model);
  if (member == nullptr || model.imex() == nullptr) {
    why =
        fmt::format("the model does not offer the batch extension '{}' (only angiogenesis-1d does)",
                    af::MemberFamily::name);
    return false;
  }
  if (member->manufactured) {
    why =
        "mode = \"manufactured\" adds source terms the batched explicit term does not have; "
        "run it with imex-trapezoid";
    return false;
  }
  return true;
}

namespace {

struct Participant {
  Model* model;
  RunContext* context;
  EnsembleMember* entry;  // null for the model run() was given
};

// Member b's share of the host arrays: its Lin values, band factors and initial state, made
// as the single path makes them (S = I - c Lin with implicit_matrix's arithmetic, placed where
// the core's conversion in the model's band ordering puts it, gbtrf) and checked against the
// batch's shared structure. Each member's slices are first written here, on its thread.
void add_member(BatchHost& host, std::size_t b, std::size_t index, ImexProblem& problem,
                const af::Member& member, std::uint64_t seed, const char* name) {
  auto where = [&] { return fmt::format("{}: member {}", name, index); };
  const CsrMatrix<double> lin = problem.linear_operator();
  if (lin.row_ptr != host.row_ptr || lin.col_idx != host.col_idx)
    throw SolverError(fmt::format("{}: its Lin has another pattern than member 0's", where()));
  if (problem.band_ordering() != host.from_band)
    throw SolverError(fmt::format("{}: its band ordering differs from member 0's", where()));
  std::copy(lin.values.begin(), lin.values.end(), host.lin.begin() + std::ptrdiff_t(b * host.nnz));
  // S's entries straight into their band slots, without an S in CSR per member; the rest of
  // the band (and gbtrf's fill-in rows) zero.
  double* lu = host.lu.data() + b * host.ldab * host.n;
  std::fill(lu, lu + host.ldab * host.n, 0.0);
  for (std::size_t i = 0; i < lin.rows; ++i)
    for (auto k = std::size_t(lin.row_ptr[i]); k < std::size_t(lin.row_ptr[i + 1]); ++k) {
      double v = std::size_t(lin.col_idx[k]) == i ? 1.0 : 0.0;
      v -= host.c * lin.values[k];
      lu[host.lin_slot[k]] = v;
    }
  for (const std::size_t slot : host.unit_slot) lu[slot] = 1.0;
  int* ipiv = host.ipiv.data() + b * host.n;
  // As the `banded` solver of a single run factors it.
  const int info = band_lu_factor(lu, host.ldab, host.n, host.kl, host.ku, ipiv);
  if (info != 0)
    throw SolverError(fmt::format("{}: the band LU failed on I - dt/2 Lin (info = {}: {})", where(),
                                  info, info > 0 ? "singular" : "not a number in it"));
  band_lu_prepare(lu, host.ldab, host.n, host.kl, host.ku,
                  host.inverse_diagonal.data() + b * host.n, host.u_reach.data() + b * host.n);
  host.k[b] = member.k;
  std::copy(member.taf, member.taf + host.m, host.taf.begin() + std::ptrdiff_t(b * host.m));
  std::copy(member.taf_flux, member.taf_flux + host.m - 1,
            host.taf_flux.begin() + std::ptrdiff_t(b * host.m));
  host.taf_flux[b * host.m + host.m - 1] = 0.0;  // unused, but copied to the device
  problem.initial_state(std::span<double>(host.u.data() + b * host.n, host.n), seed);
}

// Checks that `model`, the batch's member `index`, can join it, then adds its arrays in slot b.
void prepare_member(BatchHost& host, std::size_t b, std::size_t index, Model& model, std::int64_t m,
                    std::uint64_t seed, const char* name) {
  const auto* member = family<af::MemberFamily>(model);
  if (member == nullptr || model.imex() == nullptr || member->manufactured)
    throw SolverError(fmt::format(
        "{}: member {} cannot be batched: {}", name, index,
        member == nullptr ? "not an angiogenesis-1d model" : "mode = \"manufactured\""));
  if (member->m != m)
    throw SolverError(fmt::format("{}: member {} has M = {}, member 0 M = {}: a batch shares M",
                                  name, index, member->m, m));
  add_member(host, b, index, *model.imex(), *member, seed, name);
}

// The batch's shared structure, from member 0; no member's arrays yet.
BatchHost shared_structure(const std::vector<Participant>& group, double dt, const char* name) {
  BatchHost host;
  auto& first = *group.front().model->imex();
  const auto& m0 = *family<af::MemberFamily>(*group.front().model);
  host.m = std::size_t(m0.m);
  host.n = first.layout().size();
  host.h = m0.h;
  host.dt = dt;
  host.c = 0.5 * dt;
  const CsrMatrix<double> lin = first.linear_operator();
  host.row_ptr = lin.row_ptr.to_vector();
  host.col_idx = lin.col_idx.to_vector();
  host.nnz = lin.values.size();
  ConversionOptions options;
  options.band_ordering = first.band_ordering();
  // The core's conversion of S's pattern, found once: implicit_matrix of Lin's entries
  // numbered 2, 4, 6, ... with c = -1 gives 2k + 2 where S's entry is Lin's entry k off the
  // diagonal, 2k + 3 where it is on it, and 1 where S adds a diagonal Lin lacks (all exact in a
  // double); converted to band storage, each value names the slot of its entry. Each member's
  // S then goes straight into its slots, as convert() would place it.
  CsrMatrix<double> numbered = lin;
  for (std::size_t k = 0; k < numbered.values.size(); ++k) numbered.values[k] = double(2 * k + 2);
  const CsrMatrix<double> s_numbered = implicit_matrix(numbered, -1.0);
  const Converted band = convert(Operator(s_numbered), OperatorKind::Banded, options);
  const auto& a = std::get<BandedMatrix<double>>(band.op);
  host.lin_slot.assign(host.nnz, 0);
  std::size_t placed = 0;
  for (std::size_t slot = 0; slot < a.band.size(); ++slot) {
    if (a.band[slot] == 0.0) continue;
    ++placed;
    if (a.band[slot] == 1.0)
      host.unit_slot.push_back(slot);
    else
      host.lin_slot[(std::size_t(a.band[slot]) - 2) / 2] = slot;
  }
  if (placed != s_numbered.values.size())
    throw SolverError(fmt::format("{}: the band conversion placed {} of {} entries of S", name,
                                  placed, s_numbered.values.size()));
  host.kl = a.kl;
  host.ku = a.ku;
  host.ldab = a.ldab();
  host.splits = band_splits(a.band.data(), host.ldab, host.n, host.kl, host.ku);
  host.from_band = band.permutation;
  host.to_band.assign(host.n, 0);
  for (std::size_t j = 0; j < host.n; ++j)
    host.to_band[std::size_t(host.from_band[j])] = std::int32_t(j);
  return host;
}

// Members first .. first + count - 1 of the group into host's arrays (sized for them, kept
// where they are large enough already: a reused chunk is not written for the first time).
void assemble(BatchHost& host, const std::vector<Participant>& group, std::size_t first,
              std::size_t count, const char* name) {
  const std::size_t b = host.members = count;
  host.k.resize(b);
  host.taf.resize(b * host.m);
  host.taf_flux.resize(b * host.m);
  host.lin.resize(b * host.nnz);
  host.lu.resize(b * host.ldab * host.n);
  host.ipiv.resize(b * host.n);
  host.u_reach.resize(b * host.n);
  host.inverse_diagonal.resize(b * host.n);
  host.u.resize(b * host.n);
  const auto m = std::int64_t(host.m);
  // Members are independent: made in parallel, the first problem reported after the loop.
  std::string problem;
  bool failed = false;
#pragma omp parallel for schedule(dynamic, 8)
  for (std::int64_t j = 0; j < std::int64_t(b); ++j) {
    const auto i = std::size_t(j);
    bool skip;
#pragma omp atomic read
    skip = failed;
    if (skip) continue;
    try {
      const auto& member = group[first + i];
      prepare_member(host, i, first + i, *member.model, m, member.context->seed, name);
    } catch (const std::exception& e) {
#pragma omp critical
      if (!failed) {
        failed = true;
        problem = e.what();
      }
    }
  }
  if (failed) throw SolverError(problem);
}

std::string failure_text(const MemberStatus& s, double dt, double limit) {
  const double t = double(s.failed_step) * dt;
  switch (s.failure) {
    case rhs_not_finite:
      return fmt::format(
          "the explicit right-hand side became non-finite at step {} (t = {:.6g}); "
          "the explicit step is probably unstable — reduce dt",
          s.failed_step, t);
    case state_not_finite:
      return fmt::format(
          "the state became non-finite at step {} (t = {:.6g}); the explicit step "
          "is probably unstable — reduce dt",
          s.failed_step, t);
    default:
      return fmt::format(
          "the projection removed {:.3g} of the state (sum |u|) at step {} "
          "(t = {:.6g}), more than projection_limit = {:g}: the step is unstable — "
          "reduce dt",
          s.projected, s.failed_step, t, limit);
  }
}

// A stopped batch's checkpoint (solvent/ensemble.hpp) in the SDK's format: one vector, every
// member's state member after member, and each member's last projected share as a scalar;
// the trapezoid step carries nothing else.
void write_batch(EnsembleCheckpoint& checkpoint, std::int64_t step, const MemberArray<double>& u,
                 const std::vector<MemberStatus>& status, double dt) {
  StepperCheckpoint c{step, double(step) * dt, {}, {std::vector<double>(u.begin(), u.end())}};
  for (const auto& s : status) c.scalars.push_back(s.projected);
  write_file_atomic(checkpoint.file, solvent::checkpoint_bytes(c, checkpoint.writer, dt));
  checkpoint.stopped = true;
}

// Every member's state (into states, member after member) and projected share from a stopped
// batch's checkpoint; its step.
std::int64_t restore_batch(const EnsembleCheckpoint& checkpoint, const BatchHost& shape,
                           std::size_t members, std::vector<double>& states,
                           std::vector<MemberStatus>& status, std::int64_t steps) {
  auto c = solvent::read_checkpoint(checkpoint.file,
                                    {checkpoint.writer, shape.dt, members * shape.n, 1, members});
  if (c.step < 0 || c.step >= steps)
    throw InputError(
        fmt::format("{}: a damaged checkpoint: it is of step {}, and the batch "
                    "takes steps 1 to {}; rerun with --overwrite",
                    checkpoint.file.string(), c.step, steps));
  states = std::move(c.vectors.front());
  for (std::size_t b = 0; b < members; ++b) status[b].projected = c.scalars[b];
  return c.step;
}

}  // namespace

RunResult BatchedImexIntegrator::run(Model& model, LinearSolver* /*solver*/, RunContext& ctx) {
  std::vector<Participant> group{{&model, &ctx, nullptr}};
  auto* ensemble = family<EnsembleFamily>(model);
  EnsembleCheckpoint* checkpoint =
      ensemble != nullptr && !ensemble->checkpoint.file.empty() ? &ensemble->checkpoint : nullptr;
  if (ensemble != nullptr)
    for (auto& other : ensemble->others) {
      if (other.model == nullptr || other.context == nullptr || other.context->observer == nullptr)
        throw SolverError(
            fmt::format("{}: an ensemble member without a model, context or observer", name_));
      group.push_back({other.model, other.context, &other});
    }
  const std::size_t members = group.size();
  BatchHost shape;
  {
    auto scope = ctx.timer->measure("assembly");
    shape = shared_structure(group, dt_, name_);
  }
  // The engine's making is timed apart: on a GPU it is the device arrays' allocation.
  std::unique_ptr<BatchEngine> engine;
  {
    auto scope = ctx.timer->measure("upload");
    engine = engine_(shape, members, projection_, projection_limit_);
  }
  facts_ = {{"device", engine->device_name()},
            {"members", std::to_string(members)},
            {"operator_form",
             fmt::format("banded (kl = {}, ku = {}), band LU per member", shape.kl, shape.ku)}};
  std::vector<MemberStatus> status(members);
  // The step the members start from: 0, or a stopped batch's checkpoint, where every member's
  // state and last projected share continue (a failed member's slot too: the runner has
  // recorded it and ignores what the batch does with it).
  std::vector<double> resumed;
  const std::int64_t start =
      checkpoint != nullptr && checkpoint->resume
          ? restore_batch(*checkpoint, shape, members, resumed, status, steps_)
          : 0;

  const FieldLayout layout = group.front().model->imex()->layout();
  std::vector<std::int64_t> reported(members, 0);  // the last step each member reported
  // Every reporting member's observables made in parallel (each from its own model, which
  // observables() only reads), then handed to the observers in member order on this thread, as
  // an observer need not be thread-safe. Serial, the observables were most of the output of a
  // large batch.
  std::vector<std::vector<Observable>> observables(members);
  auto report = [&](std::int64_t step, const double* states) {
    const double t = double(step) * dt_;
    auto state = [&](std::size_t b) {
      return std::span<const double>(states + b * shape.n, shape.n);
    };
    auto reports = [&](std::size_t b) { return status[b].failed_step == 0; };
#pragma omp parallel for schedule(dynamic, 64)
    for (std::int64_t j = 0; j < std::int64_t(members); ++j) {
      const auto b = std::size_t(j);
      if (!reports(b)) continue;
      observables[b] = group[b].model->imex()->observables(t, state(b));
      if (projection_) observables[b].push_back({"projected", status[b].projected});
    }
    for (std::size_t b = 0; b < members; ++b)
      if (reports(b)) {
        group[b].context->observer->on_step({step, steps_, t, dt_}, state(b), observables[b]);
        reported[b] = step;
      }
  };
  // The members' arrays, a chunk at a time (members_per_load): while the engine loads one chunk
  // (on a thread of its own), this thread assembles the next into the other of two sets of
  // arrays. The upload phase is what the loads took beyond the assembly they overlapped.
  {
    const std::size_t per = std::min(members_per_load, members);
    BatchHost arrays[2] = {shape, shape};
    std::future<BatchHost> loading;
    for (std::size_t first = 0, k = 0; first < members; first += per, ++k) {
      const std::size_t count = std::min(per, members - first);
      BatchHost& chunk = arrays[k % 2];
      {
        auto scope = ctx.timer->measure("assembly");
        assemble(chunk, group, first, count, name_);
        if (!resumed.empty())
          std::copy_n(resumed.begin() + std::ptrdiff_t(first * shape.n), count * shape.n,
                      chunk.u.begin());
      }
      auto scope = ctx.timer->measure("upload");
      if (loading.valid()) {
        BatchHost back = loading.get();  // none where the engine kept the arrays
        arrays[(k + 1) % 2] = back.n != 0 ? std::move(back) : shape;
      }
      loading = std::async(
          std::launch::async,
          [&engine, first](BatchHost h) { return engine->load(std::move(h), first); },
          std::move(chunk));
    }
    auto scope = ctx.timer->measure("upload");
    loading.get();
  }
  // Every member made and checked, the first output: the start step (a continued batch reports
  // its checkpoint's step again, as a resumed single run does), from the engine's states.
  MemberArray<double> u;
  {
    auto scope = ctx.timer->measure("output");
    for (std::size_t b = 0; b < members; ++b) group[b].context->observer->on_start(layout);
    std::vector<MemberStatus> unchanged;  // the statuses are the checkpoint's, or fresh
    engine->read(u, unchanged);
    report(start, u.data());
  }
  // The reports fall on the same steps whatever the start: a batch stops only at a report.
  for (std::int64_t first = start + 1; first <= steps_; first += report_every_) {
    const std::int64_t last = std::min(first + report_every_ - 1, steps_);
    {
      auto scope = ctx.timer->measure("batched steps");
      engine->advance(first, last);
    }
    auto scope = ctx.timer->measure("output");
    engine->read(u, status);
    report(last, u.data());
    if (checkpoint != nullptr && checkpoint->stop && last < steps_ && checkpoint->stop()) {
      write_batch(*checkpoint, last, u, status, dt_);
      break;
    }
  }

  RunResult lead;
  std::string lead_failure;
  for (std::size_t b = 0; b < group.size(); ++b) {
    RunResult r;
    r.steps = reported[b];
    r.t = double(reported[b]) * dt_;
    r.last_solve = direct_solve_stats();
    r.last_solve.status = "direct solve (batched band LU)";
    std::string failure;
    if (status[b].failed_step != 0)
      failure = fmt::format("{}: {}. Output up to step {} is kept.", name_,
                            failure_text(status[b], dt_, projection_limit_), reported[b]);
    if (group[b].entry != nullptr) {
      group[b].entry->result = r;
      group[b].entry->failure = failure;
    } else {
      lead = r;
      lead_failure = failure;
    }
  }
  if (!lead_failure.empty()) throw DivergenceError(lead_failure);
  return lead;
}

}  // namespace solvent::imex
