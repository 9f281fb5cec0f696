// A model offering both core families — u' = Lin u + N(u, t) for a density u >= 0 on 8
// points with a known solution, and A x = b with a known x — honest by default and, with
// `flaw`, broken in one of the ways the conformance kit's model checks must catch. Each flaw
// is one a model can ship with unnoticed until an integrator or solver trips over it far
// from the cause. One library for all of them: the flaw is a setting, not a build.
#include <solvent/solvent.hpp>

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace {

constexpr std::size_t points = 8;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The IMEX part: Lin the discrete Laplacian (unit spacing, Dirichlet ends), whose slowest
// mode s_i = sin(pi (i + 1) / (points + 1)) has the eigenvalue rate = -4 sin^2(pi / 18);
// N(u, t) = -u^2 / 10 + g(t) with g = U(t)^2 / 10, so that U(t) = exp(rate t) s solves
// u' = Lin u + N(u, t) exactly, on the grid (no truncation error).
class Imex : public solvent::ImexProblem {
 public:
  explicit Imex(const std::string& flaw) : flaw_(flaw) {}
  solvent::FieldLayout layout() const override {
    std::vector<double> x(points);
    for (std::size_t i = 0; i < points; ++i) x[i] = double(i) / double(points - 1);
    return {{"u"}, {{"x", x}}};
  }
  void initial_state(std::span<double> u, std::uint64_t) const override {
    solution(0.0, u);
    if (flaw_ == "state-not-finite") u[5] = nan;
  }
  // The state peaks at sin(4 pi / 9) = 0.985: a declared upper bound of 0.9 is a lie.
  std::vector<solvent::Range> ranges() const override {
    if (flaw_ == "ranges-count") return {solvent::Range{0.0}, solvent::Range{0.0, 1.0}};
    if (flaw_ == "state-out-of-range") return {solvent::Range{0.0, 0.9}};
    return {solvent::Range{0.0}};
  }
  solvent::CsrMatrix<double> linear_operator() const override {
    const std::size_t n = flaw_ == "operator-size" ? points - 1 : points;
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
    if (flaw_ == "operator-not-finite") l.values[4] = nan;
    if (flaw_ == "operator-malformed") l.col_idx[2] = std::int32_t(n);
    return l;
  }
  std::vector<std::int32_t> band_ordering() const override {
    if (flaw_ != "band-ordering") return {};
    // Point 0 twice, point 7 never.
    return {0, 1, 2, 3, 4, 5, 6, 0};
  }
  void explicit_term(double t, std::span<const double> u, std::span<double> out) const override {
    std::vector<double> exact(points);
    solution(t, exact);
    for (std::size_t i = 0; i < u.size(); ++i)
      out[i] = -0.1 * u[i] * u[i] + 0.1 * exact[i] * exact[i];
    if (flaw_ == "explicit-term-not-finite") out[6] = nan;
    // A sink switched on after the instants the kit's model checks look at drives u below
    // its declared bound 0: what only a run shows.
    if (flaw_ == "sink" && t > 0.1)
      for (double& v : out) v -= 10.0;
  }
  std::vector<solvent::Observable> observables(double, std::span<const double>) const override {
    return {};
  }
  bool exact_state(double t, std::span<double> u) const override {
    // Right at t = 0 (it is the initial state there), wrong after: it decays twice as fast
    // as the model's own equation lets it.
    solution(flaw_ == "exact-state-wrong-rate" ? 2.0 * t : t, u);
    // Right after t = 0, wrong at it: a wrong initial condition.
    if (flaw_ == "exact-state-not-initial" && t == 0.0) u[2] += 0.25;
    return true;
  }

  static void solution(double t, std::span<double> u) {
    const double rate = -4.0 * std::pow(std::sin(std::numbers::pi / double(2 * (points + 1))), 2);
    for (std::size_t i = 0; i < points; ++i)
      u[i] = std::exp(rate * t) * std::sin(std::numbers::pi * double(i + 1) / double(points + 1));
  }

 private:
  std::string flaw_;
};

// The linear part: A = tridiag(-1, 4, -1), x = (1, ..., 8), b = A x.
class Linear : public solvent::LinearProblem {
 public:
  explicit Linear(const std::string& flaw) : flaw_(flaw) {}
  std::shared_ptr<const solvent::Operator> matrix() const override {
    if (flaw_ == "no-matrix") return nullptr;
    solvent::DenseMatrix<double> a(points, flaw_ == "matrix-not-square" ? points + 1 : points);
    for (std::size_t i = 0; i < points; ++i) {
      a(i, i) = 4.0;
      if (i > 0) a(i, i - 1) = -1.0;
      if (i + 1 < points) a(i, i + 1) = -1.0;
    }
    if (flaw_ == "matrix-not-finite") a(2, 5) = std::numeric_limits<double>::infinity();
    return std::make_shared<const solvent::Operator>(std::move(a));
  }
  solvent::OperatorForm form() const override {
    if (flaw_ == "form-mismatch") return {solvent::OperatorKind::Csr, solvent::ScalarKind::Real};
    return {solvent::OperatorKind::Dense, solvent::ScalarKind::Real};
  }
  solvent::Vector rhs() const override {
    if (flaw_ == "rhs-throws") throw std::runtime_error("kit fixture: no right-hand side today");
    const auto x = solution();
    std::vector<double> b(points);
    for (std::size_t i = 0; i < points; ++i)
      b[i] = 4.0 * x[i] - (i > 0 ? x[i - 1] : 0.0) - (i + 1 < points ? x[i + 1] : 0.0);
    if (flaw_ == "rhs-size") b.pop_back();
    if (flaw_ == "rhs-not-finite") b[3] = nan;
    return b;
  }
  std::optional<solvent::Vector> exact_solution() const override {
    auto x = solution();
    if (flaw_ == "wrong-exact-solution") x[0] += 1.0;
    return x;
  }
  std::optional<solvent::FieldLayout> layout() const override {
    if (flaw_ != "layout-size") return std::nullopt;
    return solvent::FieldLayout{{"x"}, {{"i", std::vector<double>(points - 1, 0.0)}}};
  }

 private:
  static std::vector<double> solution() {
    std::vector<double> x(points);
    for (std::size_t i = 0; i < points; ++i) x[i] = double(i + 1);
    return x;
  }
  std::string flaw_;
};

// Both families, as separate objects: their layout() differ in type.
class ModelFixture : public solvent::Model {
 public:
  explicit ModelFixture(const solvent::PluginContext& ctx)
      : imex_(ctx.params.string("flaw")), linear_(ctx.params.string("flaw")) {}
  solvent::ImexProblem* imex() override { return &imex_; }
  solvent::LinearProblem* linear() override { return &linear_; }

 private:
  Imex imex_;
  Linear linear_;
};

solvent::Schema schema() {
  return {solvent::ParamSpec::choice(
      "flaw", "none",
      {"none", "operator-size", "operator-malformed", "operator-not-finite", "state-out-of-range",
       "state-not-finite", "ranges-count", "band-ordering", "explicit-term-not-finite",
       "exact-state-not-initial", "exact-state-wrong-rate", "sink", "no-matrix", "matrix-not-square",
       "matrix-not-finite", "form-mismatch", "rhs-throws", "rhs-size", "rhs-not-finite",
       "wrong-exact-solution", "layout-size"},
      "the flaw built in (none: an honest model)")};
}

}  // namespace

SOLVENT_PLUGIN(solvent::describe_model<ModelFixture>(
    "kit-model", "1.0.0", "both core families, a conformance-kit fixture", &schema))
