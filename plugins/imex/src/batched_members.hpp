#pragma once
// The batched IMEX trapezoid integrators (imex-batched on the CPU, imex-batched-cuda): B
// members of the 1D model that share M, dt and steps advanced together. The members reach the
// integrator through the family's extensions (solvent_family_angiogenesis_1d/ensemble.hpp):
// the model run() is given lists the others in its Ensemble. Each member's Lin, band
// ordering, initial state and observables come from its own ImexProblem, as in a single run;
// S = I - dt/2 Lin is converted to band storage by the core and factored by LAPACK's gbtrf
// per member once (as the `banded` solver does); every step then evaluates all members'
// explicit terms and right-hand sides and solves all B banded systems in one pass of the
// engine (a loop over members on the CPU, two kernels on a GPU).
#include "src/batched_step.hpp"

#include <solvent/solvent.hpp>
#include <solvent_family_angiogenesis_1d/ensemble.hpp>

#include <memory>
#include <vector>

namespace solvent::imex {

// Every member's arrays on the host, member after member (member b's entry e of an array of
// L per member at [b L + e]); the shared ones once.
struct BatchHost {
  std::size_t members = 0, m = 0, n = 0, nnz = 0, ldab = 0, kl = 0, ku = 0;
  double h = 0, dt = 0, c = 0;
  std::vector<std::int32_t> row_ptr, col_idx, to_band, from_band;
  std::vector<std::size_t> band_slot;  // entry k of S = I - c Lin (CSR) -> its place in band storage
  std::vector<angiogenesis_1d::Coefficients> k;
  std::vector<double> taf, taf_flux;  // m per member (taf_flux's last entry unused)
  std::vector<double> lin;            // nnz per member
  std::vector<double> lu;             // ldab n per member
  std::vector<int> ipiv, u_reach;     // n per member
  std::vector<double> inverse_diagonal;
  std::vector<double> u;  // n per member: the initial states

  BatchShape shape() const {
    return {m, n, ldab, kl, ku, h, dt, c, row_ptr.data(), col_idx.data(), to_band.data(),
            from_band.data()};
  }
};

// A member's state in the engine: the step it failed at (0: none), how, and the share of
// sum |u| its last projection removed.
struct MemberStatus {
  std::int64_t failed_step = 0;
  int failure = step_ok;
  double projected = 0.0;
};

class BatchEngine {
 public:
  virtual ~BatchEngine() = default;
  // Advances every member that has not failed through steps first..last (its failure recorded
  // with the step it happened at). The CPU engine takes each member through all of them
  // before the next member, so a member's arrays stay in cache as in its single run.
  virtual void advance(std::int64_t first, std::int64_t last) = 0;
  // Every member's state (member after member) and status.
  virtual void read(std::vector<double>& u, std::vector<MemberStatus>& status) = 0;
  virtual std::string device_name() const = 0;
};

using EngineFactory = std::unique_ptr<BatchEngine> (*)(const BatchHost& host, bool projection,
                                                     double projection_limit);

std::unique_ptr<BatchEngine> make_cpu_engine(const BatchHost& host, bool projection,
                                             double projection_limit);

Schema batched_schema();  // common_schema() and report_every

class BatchedImexIntegrator : public Integrator {
 public:
  BatchedImexIntegrator(const PluginContext& ctx, const char* name, EngineFactory engine);
  bool accepts(Model& model, std::string& why) const override;
  bool needs_linear_solver() const override { return false; }
  RunResult run(Model& model, LinearSolver* solver, RunContext& ctx) override;
  Facts facts() const override { return facts_; }

 private:
  const char* name_;
  EngineFactory engine_;
  double dt_;
  std::int64_t steps_, report_every_;
  bool projection_;
  double projection_limit_;
  Facts facts_;
};

}  // namespace solvent::imex
