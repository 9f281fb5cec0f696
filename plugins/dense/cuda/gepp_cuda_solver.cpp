#include "cuda/gepp_cuda_solver.hpp"

#include "cuda/blocked_lu.hpp"
#include "cuda/gepp_cuda_options.hpp"
#include "src/square_matrix.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace solvent::dense {

GeppCudaSolver::GeppCudaSolver(const PluginContext& context)
    : GeppCudaSolver(read_engine_options(context.params), context.log) {}

// The mode's preset decides reuse_factorization where the configuration leaves it out.
GeppCudaSolver::GeppCudaSolver(const EngineOptions& options, std::shared_ptr<spdlog::logger> log)
    : DirectSolver(options.reuse_factorization), options_(options), log_(std::move(log)) {}

std::vector<OperatorForm> GeppCudaSolver::forms() const {
  return {{OperatorKind::Dense, ScalarKind::Real}};
}

void GeppCudaSolver::load(const Operator& op) {
  n_ = square_order(op, "gepp-cuda");
  if (!device_) {
    if (options_.blocked) {
      device_ = std::make_unique<BlockedLu>(options_);
    } else {
      device_ = std::make_unique<DeviceGepp>(options_);
    }
    if (log_) log_->info("gepp-cuda on {}: {}", device_->device_name(), describe(options_));
  }
  device_->load(std::get<DenseMatrix<double>>(op).values.data(), n_);
  if (log_) {
    const double dense_updates =
        static_cast<double>(n_) * static_cast<double>(n_) * static_cast<double>(n_) / 3.0;
    log_->debug("gepp-cuda: order {}, {:.3g} multiply-adds per factorisation ({:.1f}% of dense)",
                n_, device_->updates_per_factorization(),
                n_ == 0 ? 0.0 : 100.0 * device_->updates_per_factorization() / dense_updates);
  }
}

void GeppCudaSolver::factor() {
  device_->factor();
  const PhaseTimes& t = device_->last_times();
  totals_.upload_ms += t.upload_ms;
  totals_.factor_ms += t.factor_ms;
}

// Without reuse the device refactors from its copy of the matrix inside solve().
void GeppCudaSolver::factor_and_solve(std::span<const double> b, std::span<double> x) {
  substitute(b, x);
}

void GeppCudaSolver::substitute(std::span<const double> b, std::span<double> x) {
  device_->solve(b.data(), x.data());
  const PhaseTimes& t = device_->last_times();
  totals_.upload_ms += t.upload_ms;
  totals_.factor_ms += t.factor_ms;
  totals_.substitute_ms += t.substitute_ms;
  totals_.download_ms += t.download_ms;
  ++solves_;
}

Facts GeppCudaSolver::more_facts() const {
  Facts f{{"options", describe(options_)}, {"solves", std::to_string(solves_)}};
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
