// A Jacobi solver for dense real systems, built once honest and once with each of the
// flaws the conformance kit must catch (KIT_FLAW): a kit that passes any of the flawed
// builds would let a plugin report success on a wrong answer.
#include <solvent/solvent.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace {

enum Flaw { honest, always_converged, zero_residual, claims_every_form, never_converges };

class JacobiFixture : public solvent::LinearSolver {
 public:
  explicit JacobiFixture(const solvent::PluginContext& ctx)
      : tolerance_(ctx.params.real("tolerance")), max_iterations_(ctx.params.integer("max_iterations")) {}

  std::vector<solvent::OperatorForm> forms() const override {
    using solvent::OperatorKind, solvent::ScalarKind;
    if (KIT_FLAW != claims_every_form) return {{OperatorKind::Dense, ScalarKind::Real}};
    std::vector<solvent::OperatorForm> all;
    for (auto k : {OperatorKind::Dense, OperatorKind::Csr, OperatorKind::Banded,
                   OperatorKind::Stencil7, OperatorKind::MatrixFree})
      for (auto s : {ScalarKind::Real, ScalarKind::Complex}) all.push_back({k, s});
    return all;
  }

 protected:
  void setup_impl(std::shared_ptr<const solvent::Operator> op) override {
    const auto* a = std::get_if<solvent::DenseMatrix<double>>(op.get());
    // The flawed build claims every form above, then cannot handle them here.
    if (!a) throw solvent::UnsupportedOperator("jacobi fixture: dense real matrices only");
    a_ = *a;
  }

  solvent::SolveStats solve_impl(std::span<const double> b, std::span<double> x) override {
    const std::size_t n = a_.rows;
    std::vector<double> next(n);
    solvent::SolveStats s;
    const double bnorm = norm(b);
    for (s.iterations = 0; s.iterations < max_iterations_; ++s.iterations) {
      s.residual = residual(b, x) / bnorm;
      if (s.residual <= tolerance_ && KIT_FLAW != never_converges) break;
      for (std::size_t i = 0; i < n; ++i) {
        double sum = b[i];
        for (std::size_t j = 0; j < n; ++j)
          if (j != i) sum -= a_(i, j) * x[j];
        next[i] = sum / a_(i, i);
      }
      std::copy(next.begin(), next.end(), x.begin());
    }
    s.residual = residual(b, x) / bnorm;
    s.converged = s.residual <= tolerance_ && KIT_FLAW != never_converges;
    if (KIT_FLAW == always_converged) s.converged = true;
    if (KIT_FLAW == zero_residual) s.residual = 0.0;
    s.status = s.converged ? "converged" : "max_iterations";
    return s;
  }

 private:
  static double norm(std::span<const double> v) {
    double s = 0;
    for (double e : v) s += e * e;
    return std::sqrt(s);
  }
  double residual(std::span<const double> b, std::span<const double> x) const {
    double s = 0;
    for (std::size_t i = 0; i < a_.rows; ++i) {
      double r = b[i];
      for (std::size_t j = 0; j < a_.cols; ++j) r -= a_(i, j) * x[j];
      s += r * r;
    }
    return std::sqrt(s);
  }

  double tolerance_;
  std::int64_t max_iterations_;
  solvent::DenseMatrix<double> a_;
};

solvent::Schema schema() {
  return {solvent::ParamSpec::real("tolerance", 1e-10, "relative residual to reach").above(0.0),
          solvent::ParamSpec::integer("max_iterations", 1000, "iterations at most").at_least(1)};
}

}  // namespace

SOLVENT_PLUGIN(solvent::describe_linear_solver<JacobiFixture>(
    KIT_FIXTURE_NAME, "1.0.0", "Jacobi iteration, a conformance-kit fixture", &schema))
