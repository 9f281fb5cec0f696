// The CPU engine: the tip phases as loops in the order the CUDA engine's barriers impose,
// then the uptake on the vessel nodes. A step touches the tips and the vessel nodes only,
// so it runs on one thread. It keeps the tips on its block and the vessel nodes in its
// window in lists, so that a step costs what they and the tips that move or branch cost,
// not the whole network: over several ranks each rank decides its own tips, takes the
// others' decisions from their ranks and settles only the tips that move or branch. In the
// continuous mode a step is the update of n, f and c at every node of the block, serially
// (the reference the CUDA engine's speed-up is measured against), and over several ranks
// the exchange of the layer around the block (WindowHalo).
#include <solvent_stencil3d/stencil_engine.hpp>
#include "src/rank_blocks.hpp"
#include "src/step_plan.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>
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
    local_.assign(slots, 0);
    local_tips_.clear();
    local_vessel_.clear();
    if (s_.n.empty()) {
      const TipView v = view();
      for (std::int32_t t = 0; t < s_.counters.tips; ++t) place(v, t);
      add_vessel_nodes(v, 0);
    }
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

  TipView view() {
    return tip_view(s_, s_.f.data(), s_.c.data(), s_.owner.data(), s_.node.data(),
                    s_.birth.data(), s_.active.data(), s_.segments.data(), s_.vessel.data(),
                    &s_.counters);
  }

  // Tip t joins or leaves the list of those this engine decides: it moved onto or off the
  // block, fused, or was born.
  void place(const TipView& v, std::int32_t t) {
    const auto here = static_cast<char>(decides_here(v, t));
    if (here && !local_[t]) local_tips_.push_back(t);
    local_[t] = here;
  }

  // The vessel nodes stored from `first` on that lie in the window, as window indices.
  void add_vessel_nodes(const TipView& v, std::int32_t first) {
    const std::int32_t stored = std::min(s_.counters.vessel_nodes, v.vessel_capacity);
    for (std::int32_t q = first; q < stored; ++q)
      if (const std::int32_t at = v.window.find(v.g, s_.vessel[q]); at >= 0)
        local_vessel_.push_back(at);
  }

  // Whether a tip before t claims node q this step, from the claims ordered by node.
  struct IndexedClaims {
    std::int32_t t;
    const std::vector<std::pair<std::int32_t, std::int32_t>>* claims;  // (node, tip)
    bool operator()(std::int32_t q) const {
      const auto first = std::lower_bound(claims->begin(), claims->end(),
                                          std::pair<std::int32_t, std::int32_t>{q, -1});
      return first != claims->end() && first->first == q && first->second < t;
    }
  };

  void tip_phase() {
    const TipView v = view();
    const NetworkCounters start = s_.counters;
    decisions_.clear();
    std::int32_t bad = 0;
    for (const std::int32_t t : local_tips_) {
      bad += decide(v, s_.step, t, target_.data(), met_.data(), site_.data());
      if (target_[t] >= 0 || site_[t] >= 0)
        decisions_.push_back({t, target_[t], met_[t], site_[t]});
    }
    // The tips that stay and do not branch change nothing; the others are settled in the
    // global tip order, as one rank settles them.
    if (comm_.size() > 1)
      bad = share_decisions(comm_, decisions_, bad);
    else
      std::sort(decisions_.begin(), decisions_.end(),
                [](const TipDecision& a, const TipDecision& b) { return a.tip < b.tip; });
    std::int32_t proposals = 0;
    claims_.clear();
    for (TipDecision& d : decisions_) {
      if (d.site >= 0) {
        if (branch_fits(v, start.tips, proposals))
          ++proposals;
        else
          d.site = -1;
      }
      if (d.target >= 0) claims_.emplace_back(d.target, d.tip);
      if (d.site >= 0) claims_.emplace_back(d.site, d.tip);
      target_[d.tip] = d.target;
      site_[d.tip] = d.site;
    }
    std::sort(claims_.begin(), claims_.end());
    std::int64_t before = 0;
    std::int32_t furthest = 0;
    for (const TipDecision& d : decisions_) {
      const std::int64_t outcome =
          resolve_decision(v, d.tip, d.target, d.met, d.site, IndexedClaims{d.tip, &claims_});
      const std::int32_t x =
          commit(v, start, s_.step, d.tip, target_.data(), site_.data(), outcome, before);
      furthest = x > furthest ? x : furthest;
      place(v, d.tip);
      if (Outcome::branches(outcome)) place(v, start.tips + Outcome::branches(before));
      before += outcome;
    }
    // A tip that stays keeps its x, which the counters already hold.
    add_totals(s_.counters, before, furthest, bad, v.segment_capacity, v.vessel_capacity);
    std::erase_if(local_tips_, [&](std::int32_t t) { return !local_[t]; });
    add_vessel_nodes(v, start.vessel_nodes);

    // Every vessel node in the window, including those reached this step, takes up TAF
    // and lays down fibronectin.
    const auto uptake = vessel_uptake(s_.p, s_.dt);
    for (const std::int32_t at : local_vessel_) take_up(uptake, s_.f[at], s_.c[at]);
  }

  const Communicator& comm_;
  const GridBlocks* blocks_;
  std::optional<WindowHalo> halo_;  // continuous mode over several ranks
  SimulationState s_;
  std::vector<std::int32_t> target_, met_, site_;  // per tip slot, this step's decisions
  std::vector<TipDecision> decisions_;  // of the tips that move or branch, all ranks'
  std::vector<std::pair<std::int32_t, std::int32_t>> claims_;  // (node, tip), this step's
  std::vector<char> local_;                // per tip slot: whether it is in local_tips_
  std::vector<std::int32_t> local_tips_;   // the active tips on the block
  std::vector<std::int32_t> local_vessel_;  // the vessel nodes in the window (window index)
  std::vector<double> n_new_, f_new_, c_new_;  // the continuous mode's next fields
};

}  // namespace

std::unique_ptr<StencilEngine> make_cpu_engine(const Communicator& comm,
                                               const GridBlocks* blocks) {
  return std::make_unique<CpuEngine>(comm, blocks);
}

}  // namespace solvent::stencil3d
