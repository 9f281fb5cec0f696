#pragma once
// The LinearSolver plugin object shared by every Krylov plugin: Method is the algorithm
// (Bicgstab, BicgstabL, Tfqmr, Cg), Space the vector space it runs in (HostSpace, or the
// CUDA plugins' DeviceSpace). setup() prepares the space for the operator's scalar type
// (the device copy of the matrix, the Jacobi diagonal); solve() runs one solve in it.
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
      : options_(read_krylov_options(ctx.params)), log_(ctx.log) {}

  bool accepts(OperatorKind kind, ScalarKind) const override {
    return kind == OperatorKind::Csr || kind == OperatorKind::Stencil7;
  }

  void setup(std::shared_ptr<const Operator> op) override {
    if (!accepts(kind_of(*op), scalar_of(*op)))
      throw UnsupportedOperator(name() + ": cannot take a " + std::string(to_string(kind_of(*op))) +
                                " operator (it takes csr and stencil7)");
    real_.reset();
    complex_.reset();
    try {
      std::visit(
          [&](const auto& m) {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, CsrMatrix<double>> ||
                          std::is_same_v<M, Stencil7<double>>)
              real_ = make_space<double>(&m);
            else if constexpr (std::is_same_v<M, CsrMatrix<complex>> ||
                               std::is_same_v<M, Stencil7<complex>>)
              complex_ = make_space<complex>(&m);
          },
          *op);
    } catch (const DeviceUnavailable& e) {
      throw DeviceUnavailable(name() + ": " + e.what());
    }
    op_ = std::move(op);
  }

  SolveStats solve(std::span<const double> b, std::span<double> x) override {
    return solve_in(real_, b, x);
  }
  SolveStats solve(std::span<const complex> b, std::span<complex> x) override {
    return solve_in(complex_, b, x);
  }

  Facts facts() const override {
    std::ostringstream tolerance;
    tolerance << options_.tolerance;
    Facts f{{"device", device_},
            {"preconditioner", options_.jacobi ? "jacobi" : "none"},
            {"tolerance", tolerance.str()},
            {"max_iterations", std::to_string(options_.max_iterations)}};
    if constexpr (Method::uses_degree) f.emplace_back("l", std::to_string(options_.degree));
    if (solves_ > 0) {
      f.emplace_back("last_iterations", std::to_string(last_.iterations));
      f.emplace_back("last_status", last_.status);
    }
    return f;
  }

 private:
  static std::string name() { return Method::name + std::string(Space<double>::plugin_suffix); }

  template <class T>
  std::unique_ptr<Space<T>> make_space(MatrixView<T> a) {
    std::vector<T> inverse_diagonal;
    if (options_.jacobi) inverse_diagonal = jacobi_inverse_diagonal(a);
    auto space = std::make_unique<Space<T>>(a, std::move(inverse_diagonal));
    device_ = space->device_name();
    return space;
  }

  template <class T>
  SolveStats solve_in(const std::unique_ptr<Space<T>>& space, std::span<const T> b,
                      std::span<T> x) {
    if (!space) {
      if (!op_) throw SolverError(name() + ": solve() called before setup()");
      throw SolverError(name() + ": the operator is " + std::string(to_string(scalar_of(*op_))) +
                        " but the right-hand side is " + std::string(to_string(scalar_kind_of<T>)));
    }
    if (b.size() != space->size() || x.size() != space->size())
      throw SolverError(name() + ": the operator has " + std::to_string(space->size()) +
                        " rows but b has " + std::to_string(b.size()) + " and x " +
                        std::to_string(x.size()) + " entries");
    last_ = solve_system<Method>(*space, b, x, options_);
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
};

}  // namespace solvent::krylov
