#pragma once
#include <solvent_stencil3d/stencil_engine.hpp>

#include <solvent/device/rank_device.hpp>
#include <solvent/integrator.hpp>
#include <solvent/plugin.hpp>

#include <memory>

namespace solvent::stencil3d {

// Advances the "angiogenesis-3d" model: forward Euler on n, f and c with the seven-point
// coefficients P0..P6, and the discrete tip cells, on the CPU or a CUDA device; writes
// fields (.vti), network (.vtp, .png) and checkpoints into the run's output directory.
class ExplicitStencil3d final : public solvent::Integrator {
 public:
  explicit ExplicitStencil3d(const solvent::PluginContext& ctx);
  bool accepts(solvent::Model& model, std::string& why) const override;
  bool needs_linear_solver() const override { return false; }
  solvent::RunResult run(solvent::Model& model, solvent::LinearSolver* solver,
                         solvent::RunContext& ctx) override;
  solvent::Facts facts() const override { return facts_; }
  bool writes_checkpoints() const override { return true; }
  std::optional<std::int64_t> checkpoint_step(const std::filesystem::path& dir) const override;

 private:
  solvent::Parameters q_;
  solvent::RankDevice device_;  // this rank's
  solvent::Facts facts_;
};

}  // namespace solvent::stencil3d
