// The CPU engine: OpenMP over (k, j) planes for the field update; the tip phases as loops
// over tips in the order the CUDA engine's barriers impose.
#include <solvent_stencil3d/stencil_engine.hpp>
#include "src/step_plan.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace solvent::stencil3d {
namespace {

class CpuEngine final : public StencilEngine {
 public:
  explicit CpuEngine(int threads) : threads_(threads) {}

  void load(const SimulationState& s) override {
    s_ = s;
    n_next_.assign(s_.n.size(), 0.0);
    const auto slots = s_.node.size();
    target_.assign(slots, -1);
    site_.assign(slots, -1);
    outcome_.assign(slots, 0);
  }

  void step() override {
    field_phase();
    tip_phase();
    ++s_.step;
  }

  NetworkCounters counters() override { return s_.counters; }

  void store(SimulationState& s) override { s = s_; }

  PhaseSeconds timed_steps(std::int64_t count) override {
    using clock = std::chrono::steady_clock;
    PhaseSeconds t;
    for (std::int64_t q = 0; q < count; ++q) {
      const auto a = clock::now();
      field_phase();
      const auto b = clock::now();
      tip_phase();
      ++s_.step;
      t.field += std::chrono::duration<double>(b - a).count();
      t.tips += std::chrono::duration<double>(clock::now() - b).count();
    }
    return t;
  }

  std::string device_name() const override {
#ifdef _OPENMP
    const int n = threads_ > 0 ? threads_ : omp_get_max_threads();
#else
    const int n = 1;
#endif
    return "cpu (" + std::to_string(n) + " threads)";
  }

 private:
  void field_phase() {
    const auto g = solvent::angiogenesis_3d::grid_of(s_.p);
    const auto sc = solvent::angiogenesis_3d::scheme_constants(s_.p, s_.dt);
    const double* n = s_.n.data();
    const double* f = s_.f.data();
    const double* c = s_.c.data();
    double* out = n_next_.data();
#ifdef _OPENMP
    const int threads = threads_ > 0 ? threads_ : omp_get_max_threads();
#endif
#pragma omp parallel for collapse(2) schedule(static) num_threads(threads)
    for (std::int32_t k = 0; k < g.nz; ++k)
      for (std::int32_t j = 0; j < g.ny; ++j)
        for (std::int32_t i = 0; i < g.nx; ++i)
          out[g.index(i, j, k)] = density_at(sc, g, n, f, c, i, j, k);
    std::swap(s_.n, n_next_);
  }

  void tip_phase() {
    const TipView v =
        tip_view(s_, s_.f.data(), s_.c.data(), s_.owner.data(), s_.node.data(), s_.birth.data(),
                 s_.active.data(), s_.segments.data(), s_.vessel.data(), &s_.counters);
    const NetworkCounters start = s_.counters;
    const std::int32_t tips = start.tips;
    for (std::int32_t t = 0; t < tips; ++t) decide(v, s_.step, t, target_.data(), site_.data());
    std::int32_t proposals = 0;
    for (std::int32_t t = 0; t < tips; ++t)
      if (site_[t] >= 0) {
        if (branch_fits(v, tips, proposals))
          ++proposals;
        else
          site_[t] = -1;
      }
    for (std::int32_t t = 0; t < tips; ++t)
      outcome_[t] = resolve(v, t, target_.data(), site_.data());
    std::int64_t before = 0;
    std::int32_t furthest = 0;
    for (std::int32_t t = 0; t < tips; ++t) {
      const std::int32_t x =
          commit(v, start, s_.step, t, target_.data(), site_.data(), outcome_[t], before);
      furthest = x > furthest ? x : furthest;
      before += outcome_[t];
    }
    add_totals(s_.counters, before, furthest, v.segment_capacity, v.vessel_capacity);

    // Every vessel node, including those reached this step, takes up TAF and lays down
    // fibronectin.
    const auto uptake = vessel_uptake(s_.p, s_.dt);
    const std::int32_t nodes = std::min(s_.counters.vessel_nodes, v.vessel_capacity);
    for (std::int32_t q = 0; q < nodes; ++q) {
      const auto m = static_cast<std::size_t>(s_.vessel[q]);
      take_up(uptake, s_.f[m], s_.c[m]);
    }
  }

  int threads_;
  SimulationState s_;
  std::vector<double> n_next_;
  std::vector<std::int32_t> target_, site_;
  std::vector<std::int64_t> outcome_;
};

}  // namespace

std::unique_ptr<StencilEngine> make_cpu_engine(int threads) {
  return std::make_unique<CpuEngine>(threads);
}

}  // namespace solvent::stencil3d
