// Test plugins for runs over several ranks, built twice: RANK_PROBE_MODEL gives the model
// "rank-probe", otherwise the integrator "rank-probe-steps". Both declare any number of
// ranks. The integrator reports, every step, the rank-ordered sum of (rank + 1) * step over
// all ranks (so a run on N ranks has a known answer), and throws on rank `fail_rank` at
// step `fail_step`: a failure on one rank only, while the others wait in a collective; rank
// `stall_rank` stops answering at that step instead (it sleeps for a minute). The
// model fails to "read its input" on rank `unreadable_on_rank`; with `setup_collective`
// the other ranks then meet in a collective while it is made, as a model that partitions
// its rows over the ranks does, which the failed rank never joins.
#include <solvent/errors.hpp>
#include <solvent/integrator.hpp>
#include <solvent/plugin.hpp>

#include <chrono>
#include <thread>

namespace {

class RankProbeModel final : public solvent::Model {
 public:
  explicit RankProbeModel(const solvent::PluginContext& ctx) {
    if (ctx.comm->rank() == ctx.params.integer("unreadable_on_rank"))
      throw solvent::InputError("rank-probe.dat:1: the input this rank reads is malformed");
    if (ctx.params.boolean("setup_collective")) {
      double v[1] = {1.0};
      ctx.comm->sum(v);
    }
  }
};

class RankProbeSteps final : public solvent::Integrator {
 public:
  explicit RankProbeSteps(const solvent::PluginContext& ctx) : p_(ctx.params) {}
  bool accepts(solvent::Model&, std::string&) const override { return true; }
  bool needs_linear_solver() const override { return false; }
  solvent::RunResult run(solvent::Model&, solvent::LinearSolver*, solvent::RunContext& ctx) override {
    const auto steps = p_.integer("steps");
    const auto& comm = *ctx.comm;
    for (std::int64_t step = 1; step <= steps; ++step) {
      if (comm.rank() == p_.integer("fail_rank") && step == p_.integer("fail_step")) {
        throw solvent::SolverError("rank-probe-steps: the failure asked for on rank " +
                                   std::to_string(comm.rank()));
      }
      if (comm.rank() == p_.integer("stall_rank") && step == p_.integer("fail_step"))
        std::this_thread::sleep_for(std::chrono::minutes(1));
      double v[1] = {static_cast<double>((comm.rank() + 1) * step)};
      comm.sum(v);
      std::vector<solvent::Observable> obs{{"rank_sum", v[0]},
                                           {"ranks", static_cast<double>(comm.size())}};
      ctx.observer->on_step({step, steps, double(step), 1.0}, {}, obs);
    }
    return {steps, double(steps), {}};
  }

 private:
  solvent::Parameters p_;
};

}  // namespace

#ifdef RANK_PROBE_MODEL
namespace {
solvent::Schema model_schema() {
  return {solvent::ParamSpec::integer("unreadable_on_rank", -1,
                                      "the rank whose input is malformed (-1: none)"),
          solvent::ParamSpec::boolean("setup_collective", false,
                                      "the ranks meet in a collective as the model is made")};
}
}  // namespace
SOLVENT_PLUGIN(solvent::distributed(solvent::describe_model<RankProbeModel>(
    "rank-probe", "1.0.0", "test model for runs over ranks", &model_schema)))
#else
namespace {
solvent::Schema steps_schema() {
  using solvent::ParamSpec;
  return {ParamSpec::integer("steps", 3, "steps to take").at_least(1),
          ParamSpec::integer("fail_rank", -1, "the rank that fails (-1: none)"),
          ParamSpec::integer("stall_rank", -1, "the rank that stops answering (-1: none)"),
          ParamSpec::integer("fail_step", 2, "the step at which it fails or stalls")};
}
}  // namespace
SOLVENT_PLUGIN(solvent::distributed(solvent::describe_integrator<RankProbeSteps>(
    "rank-probe-steps", "1.0.0", "test integrator for runs over ranks", &steps_schema)))
#endif
