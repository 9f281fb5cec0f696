#pragma once
// The LinearSolver plugin object shared by every Krylov plugin: Method is the algorithm
// (Bicgstab, BicgstabL, Tfqmr, Cg), Space the vector space it runs in (HostSpace, or the
// CUDA plugins' DeviceSpace), which also says which operator forms it applies. setup()
// prepares the space for the operator's scalar type (the device copy of the matrix, the
// preconditioner the core set up); solve() runs one solve in it.
#include <solvent_krylov/matrix_view.hpp>
#include <solvent_krylov/options.hpp>
#include <solvent_krylov/solve_system.hpp>

#include <solvent/errors.hpp>
#include <solvent/plugin.hpp>

#include <spdlog/spdlog.h>

#include <memory>
#include <sstream>
#include <string>

namespace solvent::krylov {

template <class Method, template <class> class Space>
class KrylovSolver final : public LinearSolver {
 public:
  explicit KrylovSolver(const PluginContext& ctx)
      : options_(read_krylov_options(ctx.params)), log_(ctx.log) {
    options_.on_iteration = [this](std::int64_t k, double residual) {
      report_iteration(k, residual);
    };
    options_.on_residual_replaced = [this](std::int64_t k, double updated, double true_residual) {
      ++replacements_;
      if (log_)
        log_->debug("{}: iteration {}: updated residual {:.3e} replaced by the true {:.3e}", name(),
                    k, updated, true_residual);
    };
    options_.on_warning = [this](const std::string& text) {
      if (log_) log_->warn("{}: {}", name(), text);
    };
    state_exchanges(Method::exchanges(options_));
    // A device space takes its rank's GPU before anything (the preconditioner included)
    // touches a device.
    if constexpr (requires { Space<double>::claim_device(*ctx.comm, ""); })
      if (ctx.comm->size() > 1) Space<double>::claim_device(*ctx.comm, name().c_str());
  }

  std::vector<OperatorForm> forms() const override { return Space<double>::forms(); }
  bool uses_preconditioner() const override { return true; }

  Facts facts() const override {
    std::ostringstream tolerance;
    tolerance << options_.tolerance;
    Facts f{{"device", device_},
            {"tolerance", tolerance.str()},
            {"max_iterations", std::to_string(options_.max_iterations)}};
    if constexpr (Method::uses_degree) f.emplace_back("l", std::to_string(options_.degree));
    if (solves_ > 0) {
      f.emplace_back("last_iterations", std::to_string(last_.iterations));
      f.emplace_back("last_status", last_.status);
      f.emplace_back("last_residual_replacements", std::to_string(replacements_));
    }
    return f;
  }

 protected:
  void setup_impl(std::shared_ptr<const Operator> op) override {
    real_.reset();
    complex_.reset();
    try {
      std::visit(
          [&](const auto& m) {
            using M = std::decay_t<decltype(m)>;
            // Only forms() arrive here (the core converted anything else).
            if constexpr (std::is_same_v<M, CsrMatrix<double>> || std::is_same_v<M, Stencil7<double>>)
              make_space(MatrixView<double>(&m));
            else if constexpr (std::is_same_v<M, CsrMatrix<complex>> ||
                               std::is_same_v<M, Stencil7<complex>>)
              make_space(MatrixView<complex>(&m));
            else if constexpr (std::is_same_v<M, MatrixFree<double>>)
              make_space(MatrixView<double>(m.get()));
            else if constexpr (std::is_same_v<M, MatrixFree<complex>>)
              make_space(MatrixView<complex>(m.get()));
          },
          *op);
    } catch (const DeviceUnavailable& e) {
      throw DeviceUnavailable(name() + ": " + e.what());
    }
    op_ = std::move(op);
  }

  SolveStats solve_impl(std::span<const double> b, std::span<double> x) override {
    return solve_in(*real_, b, x);
  }
  SolveStats solve_impl(std::span<const complex> b, std::span<complex> x) override {
    return solve_in(*complex_, b, x);
  }

 private:
  static std::string name() { return Method::name + std::string(Space<double>::plugin_suffix); }

  template <class T>
  void make_space(MatrixView<T> a) {
    auto space = std::make_unique<Space<T>>(a, preconditioner());
    device_ = space->device_name();
    if constexpr (std::is_same_v<T, double>)
      real_ = std::move(space);
    else
      complex_ = std::move(space);
  }

  template <class T>
  SolveStats solve_in(Space<T>& space, std::span<const T> b, std::span<T> x) {
    replacements_ = 0;
    last_ = solve_system<Method>(space, b, x, options_);
    ++solves_;
    if (log_)
      log_->debug("{}: {} after {} iterations, relative residual {:.3e}", name(), last_.status,
                  last_.iterations, last_.residual);
    return last_;
  }

  KrylovOptions options_;
  std::shared_ptr<spdlog::logger> log_;
  std::shared_ptr<const Operator> op_;
  std::unique_ptr<Space<double>> real_;
  std::unique_ptr<Space<complex>> complex_;
  std::string device_ = "not set up";
  SolveStats last_;
  std::int64_t solves_ = 0;
  std::int64_t replacements_ = 0;  // in the last solve (on_residual_replaced)
};

}  // namespace solvent::krylov
