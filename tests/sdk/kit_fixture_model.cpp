// A model offering both core families — u' = Lin u + N(u) for a density u >= 0 on 8 points,
// and A x = b with a known x — built once honest and once with each of the flaws the
// conformance kit's model checks must catch (KIT_FLAW). Each flaw is one a model can ship
// with unnoticed until an integrator or solver trips over it far from the cause.
#include <solvent/solvent.hpp>

#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace {

enum Flaw {
  honest,
  operator_size,        // Lin is one row short of the layout
  state_out_of_range,   // the initial state dips below the declared lower bound 0
  operator_not_finite,  // Lin holds a NaN
  matrix_not_finite,    // A holds an inf
  rhs_size,             // b is one entry short
  wrong_exact_solution  // exact_solution() does not solve A x = b
};

constexpr std::size_t points = 8;

class Imex : public solvent::ImexProblem {
 public:
  solvent::FieldLayout layout() const override {
    std::vector<double> x(points);
    for (std::size_t i = 0; i < points; ++i) x[i] = double(i) / double(points - 1);
    return {{"u"}, {{"x", x}}};
  }
  void initial_state(std::span<double> u, std::uint64_t) const override {
    for (std::size_t i = 0; i < points; ++i)
      u[i] = std::sin(std::numbers::pi * double(i + 1) / double(points + 1));
    if (KIT_FLAW == state_out_of_range) u[3] = -0.5;
  }
  std::vector<solvent::Range> ranges() const override { return {solvent::Range{0.0}}; }
  // Lin: the discrete Laplacian (unit spacing) with Dirichlet ends.
  solvent::CsrMatrix<double> linear_operator() const override {
    const std::size_t n = KIT_FLAW == operator_size ? points - 1 : points;
    solvent::CsrMatrix<double> l;
    l.rows = l.cols = n;
    l.row_ptr.push_back(0);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i == 0 ? 0 : i - 1; j <= i + 1 && j < n; ++j) {
        l.col_idx.push_back(std::int32_t(j));
        l.values.push_back(j == i ? -2.0 : 1.0);
      }
      l.row_ptr.push_back(std::int32_t(l.values.size()));
    }
    if (KIT_FLAW == operator_not_finite) l.values[4] = std::numeric_limits<double>::quiet_NaN();
    return l;
  }
  void explicit_term(double, std::span<const double> u, std::span<double> out) const override {
    for (std::size_t i = 0; i < u.size(); ++i) out[i] = -0.1 * u[i] * u[i];
  }
  std::vector<solvent::Observable> observables(double, std::span<const double>) const override {
    return {};
  }
};

class Linear : public solvent::LinearProblem {
 public:
  // A = tridiag(-1, 4, -1), x = (1, ..., 8), b = A x.
  std::shared_ptr<const solvent::Operator> matrix() const override {
    solvent::DenseMatrix<double> a(points, points);
    for (std::size_t i = 0; i < points; ++i) {
      a(i, i) = 4.0;
      if (i > 0) a(i, i - 1) = -1.0;
      if (i + 1 < points) a(i, i + 1) = -1.0;
    }
    if (KIT_FLAW == matrix_not_finite) a(2, 5) = std::numeric_limits<double>::infinity();
    return std::make_shared<const solvent::Operator>(std::move(a));
  }
  solvent::Vector rhs() const override {
    const auto x = solution();
    std::vector<double> b(points);
    for (std::size_t i = 0; i < points; ++i)
      b[i] = 4.0 * x[i] - (i > 0 ? x[i - 1] : 0.0) - (i + 1 < points ? x[i + 1] : 0.0);
    if (KIT_FLAW == rhs_size) b.pop_back();
    return b;
  }
  std::optional<solvent::Vector> exact_solution() const override {
    auto x = solution();
    if (KIT_FLAW == wrong_exact_solution) x[0] += 1.0;
    return x;
  }

 private:
  static std::vector<double> solution() {
    std::vector<double> x(points);
    for (std::size_t i = 0; i < points; ++i) x[i] = double(i + 1);
    return x;
  }
};

// Both families, as separate objects: their layout() differ in type.
class ModelFixture : public solvent::Model {
 public:
  explicit ModelFixture(const solvent::PluginContext&) {}
  solvent::ImexProblem* imex() override { return &imex_; }
  solvent::LinearProblem* linear() override { return &linear_; }

 private:
  Imex imex_;
  Linear linear_;
};

solvent::Schema schema() { return {}; }

}  // namespace

SOLVENT_PLUGIN(solvent::describe_model<ModelFixture>(
    KIT_FIXTURE_NAME, "1.0.0", "both core families, a conformance-kit fixture", &schema))
