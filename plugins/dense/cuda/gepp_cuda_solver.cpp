#include "cuda/gepp_cuda_solver.hpp"

#include "cuda/blocked_lu.hpp"
#include "cuda/gepp_cuda_options.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace solvent::dense {

using solvent::OperatorKind;
using solvent::ScalarKind;

GeppCudaSolver::GeppCudaSolver(const solvent::PluginContext& context)
    : options_(read_engine_options(context.params)), log_(context.log) {}

std::vector<solvent::OperatorForm> GeppCudaSolver::forms() const {
  return {{OperatorKind::Dense, ScalarKind::Real}};
}

void GeppCudaSolver::setup_impl(std::shared_ptr<const solvent::Operator> op) {
  const auto* dense = &std::get<solvent::DenseMatrix<double>>(*op);
  if (dense->rows != dense->cols) {
    throw solvent::SolverError(
        fmt::format("gepp-cuda: matrix is {} x {}, not square", dense->rows, dense->cols));
  }
  if (!device_) {
    if (options_.blocked) {
      device_ = std::make_unique<BlockedLu>(options_);
    } else {
      device_ = std::make_unique<DeviceGepp>(options_);
    }
    if (log_) log_->info("gepp-cuda on {}: {}", device_->device_name(), describe(options_));
  }
  op_ = std::move(op);
  n_ = dense->rows;
  device_->setup(dense->values.data(), n_);
  const PhaseTimes& t = device_->last_times();
  totals_.upload_ms += t.upload_ms;
  totals_.factor_ms += t.factor_ms;
  if (log_) {
    const double dense_updates =
        static_cast<double>(n_) * static_cast<double>(n_) * static_cast<double>(n_) / 3.0;
    log_->debug("gepp-cuda: order {}, {:.3g} multiply-adds per factorisation ({:.1f}% of dense)",
                n_, device_->updates_per_factorization(),
                n_ == 0 ? 0.0 : 100.0 * device_->updates_per_factorization() / dense_updates);
  }
}

solvent::SolveStats GeppCudaSolver::solve_impl(std::span<const double> b, std::span<double> x) {
  device_->solve(b.data(), x.data());
  const PhaseTimes& t = device_->last_times();
  totals_.upload_ms += t.upload_ms;
  totals_.factor_ms += t.factor_ms;
  totals_.substitute_ms += t.substitute_ms;
  totals_.download_ms += t.download_ms;
  ++solves_;
  return solvent::direct_solve_stats();
}

solvent::Facts GeppCudaSolver::facts() const {
  solvent::Facts f{{"options", describe(options_)}, {"solves", std::to_string(solves_)}};
  if (!device_) return f;
  const PhaseTimes& t = device_->last_times();
  f.insert(f.end(), {{"device", device_->device_name()},
                     {"multiply_adds_per_factorization",
                      fmt::format("{:.6g}", device_->updates_per_factorization())},
                     {"upload_ms_total", fmt::format("{:.3f}", totals_.upload_ms)},
                     {"factor_ms_total", fmt::format("{:.3f}", totals_.factor_ms)},
                     {"substitute_ms_total", fmt::format("{:.3f}", totals_.substitute_ms)},
                     {"download_ms_total", fmt::format("{:.3f}", totals_.download_ms)},
                     {"last_upload_ms", fmt::format("{:.4f}", t.upload_ms)},
                     {"last_factor_ms", fmt::format("{:.4f}", t.factor_ms)},
                     {"last_substitute_ms", fmt::format("{:.4f}", t.substitute_ms)},
                     {"last_download_ms", fmt::format("{:.4f}", t.download_ms)}});
  return f;
}

}  // namespace solvent::dense
