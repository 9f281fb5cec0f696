// A Jacobi solver for dense and matrix-free real systems — preconditioned Richardson
// iteration x += M^{-1} (b - A x), M the diagonal unless the core gives it a preconditioner —
// honest by default and, with `flaw`, broken in one of the ways the conformance kit must
// catch: a kit that passes any of the flawed solvers would let a plugin report success on a
// wrong answer, or declare what it cannot do. One library for all of them: the flaw is a
// setting, not a build.
#include <solvent/solvent.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace {

class JacobiFixture : public solvent::LinearSolver {
 public:
  explicit JacobiFixture(const solvent::PluginContext& ctx)
      : flaw_(ctx.params.string("flaw")),
        tolerance_(ctx.params.real("tolerance")),
        max_iterations_(ctx.params.integer("max_iterations")) {}

  std::vector<solvent::OperatorForm> forms() const override {
    using solvent::OperatorKind, solvent::ScalarKind;
    if (flaw_ != "claims-every-form")
      return {{OperatorKind::Dense, ScalarKind::Real},
              {OperatorKind::MatrixFree, ScalarKind::Real}};
    std::vector<solvent::OperatorForm> all;
    for (auto k : {OperatorKind::Dense, OperatorKind::Csr, OperatorKind::Banded,
                   OperatorKind::Stencil7, OperatorKind::MatrixFree})
      for (auto s : {ScalarKind::Real, ScalarKind::Complex}) all.push_back({k, s});
    return all;
  }
  bool uses_preconditioner() const override { return true; }

 protected:
  void setup_impl(std::shared_ptr<const solvent::Operator> op) override {
    const bool dense = std::holds_alternative<solvent::DenseMatrix<double>>(*op);
    const bool matrix_free = std::holds_alternative<solvent::MatrixFree<double>>(*op);
    // The flawed ones declare forms above that they cannot handle here.
    if (matrix_free && flaw_ == "refuses-matrix-free")
      throw solvent::UnsupportedOperator("jacobi fixture: no matrix-free operators after all");
    if (!dense && !matrix_free)
      throw solvent::UnsupportedOperator(
          "jacobi fixture: dense and matrix-free real operators only");
    op_ = std::move(op);
    // The diagonal through the operator's action, A e_i, so both storages share one code; n
    // products are nothing on the kit's systems.
    const std::size_t n = solvent::rows_of(*op_);
    diagonal_.assign(n, 0.0);
    std::vector<double> e(n, 0.0), column(n);
    for (std::size_t i = 0; i < n; ++i) {
      e[i] = 1.0;
      solvent::apply(*op_, e, column);
      diagonal_[i] = column[i];
      e[i] = 0.0;
    }
  }

  solvent::SolveStats solve_impl(std::span<const double> b, std::span<double> x) override {
    const std::size_t n = b.size();
    std::vector<double> r(n), z(n);
    solvent::SolveStats s;
    const double bnorm = norm(b);
    const auto* pc = flaw_ == "ignores-preconditioner" ? nullptr : preconditioner();
    for (s.iterations = 0;; ++s.iterations) {
      residual(b, x, r);
      s.residual = norm(r) / bnorm;
      if (s.iterations == max_iterations_ ||
          (s.residual <= tolerance_ && flaw_ != "never-converges"))
        break;
      if (pc)
        pc->apply(std::span<const double>(r), std::span<double>(z));
      else
        for (std::size_t i = 0; i < n; ++i) z[i] = r[i] / diagonal_[i];
      for (std::size_t i = 0; i < n; ++i) x[i] += z[i];
    }
    s.converged = s.residual <= tolerance_ && flaw_ != "never-converges";
    if (flaw_ == "always-converged") s.converged = true;
    if (flaw_ == "zero-residual") s.residual = 0.0;
    s.status = s.converged ? "converged" : "max_iterations";
    return s;
  }

 private:
  static double norm(std::span<const double> v) {
    double s = 0;
    for (double e : v) s += e * e;
    return std::sqrt(s);
  }
  // r = b - A x, computed from x as given: x carries the initial guess in.
  void residual(std::span<const double> b, std::span<const double> x,
                std::vector<double>& r) const {
    solvent::apply(*op_, x, r);
    for (std::size_t i = 0; i < r.size(); ++i) r[i] = b[i] - r[i];
  }

  std::string flaw_;
  double tolerance_;
  std::int64_t max_iterations_;
  std::shared_ptr<const solvent::Operator> op_;
  std::vector<double> diagonal_;
};

solvent::Schema schema() {
  return {solvent::ParamSpec::choice("flaw", "none",
                                     {"none", "always-converged", "zero-residual",
                                      "claims-every-form", "never-converges",
                                      "refuses-matrix-free", "ignores-preconditioner"},
                                     "the flaw built in (none: an honest solver)"),
          solvent::ParamSpec::real("tolerance", 1e-10, "relative residual to reach").above(0.0),
          solvent::ParamSpec::integer("max_iterations", 1000, "iterations at most").at_least(1)};
}

}  // namespace

SOLVENT_PLUGIN(solvent::describe_linear_solver<JacobiFixture>(
    "kit-jacobi", "1.0.0", "Jacobi iteration, a conformance-kit fixture", &schema))
