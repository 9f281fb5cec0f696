// The CPU engine: the tip phases as loops over tips in the order the CUDA engine's barriers
// impose, then the uptake on the vessel nodes. A step touches the tips and the vessel nodes
// only, so it runs on one thread. Over several ranks it decides the tips on its block and
// takes the others' decisions from their ranks before resolving. In the continuous mode a
// step is the update of n, f and c at every node of the block, serially (the reference the
// CUDA engine's speed-up is measured against), and over several ranks the exchange of the
// layer around the block (WindowHalo).
#include <solvent_stencil3d/stencil_engine.hpp>
#include "src/rank_blocks.hpp"
#include "src/step_plan.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <vector>

namespace solvent::stencil3d {
namespace {

class CpuEngine final : public StencilEngine {
 public:
  CpuEngine(const Communicator& comm, const GridBlocks* blocks) : comm_(comm), blocks_(blocks) {}

  void load(const SimulationState& s) override {
    s_ = s;
    const auto slots = s_.node.size();
    target_.assign(slots, -1);
    met_.assign(slots, -1);
    site_.assign(slots, -1);
    outcome_.assign(slots, 0);
    n_new_.assign(s_.n.size(), 0.0);
    f_new_.assign(s_.n.empty() ? 0 : s_.f.size(), 0.0);
    c_new_.assign(s_.n.empty() ? 0 : s_.c.size(), 0.0);
    halo_.reset();
    if (!s_.n.empty() && comm_.size() > 1) halo_.emplace(*blocks_, comm_, s_.window, 3);
  }

  void step() override {
    if (s_.p.mode == solvent::angiogenesis_3d::Mode::Continuous)
      field_step();
    else
      tip_phase();
    ++s_.step;
  }

  NetworkCounters counters() override { return s_.counters; }

  void store(SimulationState& s) override { s = s_; }

  double timed_steps(std::int64_t count) override {
    using clock = std::chrono::steady_clock;
    const auto a = clock::now();
    for (std::int64_t q = 0; q < count; ++q) step();
    return std::chrono::duration<double>(clock::now() - a).count();
  }

  std::string device_name() const override { return "cpu"; }

 private:
  void field_step() {
    const auto u = continuous_step(s_.p, s_.dt);
    const auto g = solvent::angiogenesis_3d::grid_of(s_.p);
    const Box& b = s_.block;
    for (std::int32_t k = b.offset[2]; k < b.offset[2] + b.extent[2]; ++k)
      for (std::int32_t j = b.offset[1]; j < b.offset[1] + b.extent[1]; ++j)
        for (std::int32_t i = b.offset[0]; i < b.offset[0] + b.extent[0]; ++i)
          continuous_node(u, g, s_.window, i, j, k, s_.n.data(), s_.f.data(), s_.c.data(),
                          n_new_.data(), f_new_.data(), c_new_.data());
    s_.n.swap(n_new_);
    s_.f.swap(f_new_);
    s_.c.swap(c_new_);
    if (halo_) {
      double* const fields[] = {s_.n.data(), s_.f.data(), s_.c.data()};
      halo_->exchange(fields);
    }
  }

  void tip_phase() {
    const TipView v =
        tip_view(s_, s_.f.data(), s_.c.data(), s_.owner.data(), s_.node.data(), s_.birth.data(),
                 s_.active.data(), s_.segments.data(), s_.vessel.data(), &s_.counters);
    const NetworkCounters start = s_.counters;
    const std::int32_t tips = start.tips;
    std::int32_t bad = 0;
    for (std::int32_t t = 0; t < tips; ++t) {
      if (decides_here(v, t)) {
        bad += decide(v, s_.step, t, target_.data(), met_.data(), site_.data());
      } else {
        target_[t] = met_[t] = site_[t] = -1;
      }
    }
    if (comm_.size() > 1)
      bad = share_decisions(comm_, tips, target_.data(), met_.data(), site_.data(), bad);
    std::int32_t proposals = 0;
    for (std::int32_t t = 0; t < tips; ++t)
      if (site_[t] >= 0) {
        if (branch_fits(v, tips, proposals))
          ++proposals;
        else
          site_[t] = -1;
      }
    for (std::int32_t t = 0; t < tips; ++t)
      outcome_[t] = resolve(v, t, target_.data(), met_.data(), site_.data());
    std::int64_t before = 0;
    std::int32_t furthest = 0;
    for (std::int32_t t = 0; t < tips; ++t) {
      const std::int32_t x =
          commit(v, start, s_.step, t, target_.data(), site_.data(), outcome_[t], before);
      furthest = x > furthest ? x : furthest;
      before += outcome_[t];
    }
    add_totals(s_.counters, before, furthest, bad, v.segment_capacity, v.vessel_capacity);

    // Every vessel node, including those reached this step, takes up TAF and lays down
    // fibronectin.
    const auto uptake = vessel_uptake(s_.p, s_.dt);
    const std::int32_t nodes = std::min(s_.counters.vessel_nodes, v.vessel_capacity);
    for (std::int32_t q = 0; q < nodes; ++q)
      take_up_in(uptake, v.g, v.window, s_.vessel[q], s_.f.data(), s_.c.data());
  }

  const Communicator& comm_;
  const GridBlocks* blocks_;
  std::optional<WindowHalo> halo_;  // continuous mode over several ranks
  SimulationState s_;
  std::vector<std::int32_t> target_, met_, site_;
  std::vector<std::int64_t> outcome_;
  std::vector<double> n_new_, f_new_, c_new_;  // the continuous mode's next fields
};

}  // namespace

std::unique_ptr<StencilEngine> make_cpu_engine(const Communicator& comm,
                                               const GridBlocks* blocks) {
  return std::make_unique<CpuEngine>(comm, blocks);
}

}  // namespace solvent::stencil3d
