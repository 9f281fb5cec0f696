// Model conformance: what a model promises before anything runs — sizes that agree, an initial
// state inside its own ranges, finite operators, an exact solution that solves the system. A
// model that breaks one of these fails in an integrator or a solver, far from the cause.
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace solvent::testkit {

namespace {

using Problems = std::vector<std::string>;

// The first row of A whose action on the vector of ones is not finite, or rows_of(A): a
// single product finds every inf or NaN A holds (inf or NaN times 1 stays so, and so do sums
// with it), in any storage, matrix-free included.
template <class T>
std::size_t first_non_finite_row(const Operator& a) {
  const std::size_t n = rows_of(a);
  std::vector<T> ones(n, T(1.0)), y(n);
  apply(a, std::span<const T>(ones), std::span<T>(y));
  return first_non_finite(std::span<const T>(y));
}

std::size_t first_non_finite_row(const Operator& a) {
  return scalar_of(a) == ScalarKind::Real ? first_non_finite_row<double>(a)
                                          : first_non_finite_row<complex>(a);
}

// Columns of a stored matrix; a matrix-free operator and a stencil are square by construction.
std::size_t cols_of(const Operator& a) {
  return std::visit(
      [](const auto& m) -> std::size_t {
        if constexpr (requires { m.cols; })
          return m.cols;
        else
          return rows_of(Operator(m));
      },
      a);
}

// "real vector of 12": what a vector is, for the sentence that says it does not fit.
std::pair<ScalarKind, std::size_t> shape_of(const Vector& v) {
  return std::visit(
      [](const auto& x) {
        return std::pair(scalar_kind_of<typename std::decay_t<decltype(x)>::value_type>, x.size());
      },
      v);
}

// Whether the exact state U(t) solves the model's own equation U' = Lin U + N(U, t): the
// time derivative by fourth-order central differences of exact_state() around t0 = 3h (all
// samples at t > 0, none at the initial instant), against Lin U + N(U, t0), relative to the
// largest of the three terms. With h = 1e-3 the difference itself is good to about 1e-9 of
// the largest term for an exact state that varies on time scales of 0.1 or longer, so no
// tolerance below 1e-8 is asked of it. A manufactured source that does not match its solution, or an exact
// state of another operator, is caught here rather than as an error that never falls.
void check_exact_dynamics(const ImexProblem& p, const FieldLayout& layout, const Operator& lin,
                          double tolerance, Problems& out) {
  constexpr double h = 1e-3;
  constexpr double t0 = 3 * h;
  const std::size_t n = layout.size();
  const double offsets[4] = {-2 * h, -h, h, 2 * h};
  std::vector<std::vector<double>> at(4, std::vector<double>(n));
  for (int k = 0; k < 4; ++k) p.exact_state(t0 + offsets[k], at[k]);
  std::vector<double> u(n), lin_u(n), term(n), residual(n);
  p.exact_state(t0, u);
  apply(lin, std::span<const double>(u), std::span<double>(lin_u));
  p.explicit_term(t0, u, term);
  double largest = 0, scale = 0;
  std::size_t worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double rate = (at[0][i] - 8 * at[1][i] + 8 * at[2][i] - at[3][i]) / (12 * h);
    residual[i] = rate - lin_u[i] - term[i];
    // NaN counts as the worst: a state or term that is not finite solves nothing.
    if (!(std::abs(residual[i]) <= largest)) {
      largest = std::isnan(residual[i]) ? std::numeric_limits<double>::infinity()
                                        : std::abs(residual[i]);
      worst = i;
    }
    scale = std::max({scale, std::abs(rate), std::abs(lin_u[i]), std::abs(term[i])});
  }
  const double limit = std::max(tolerance, 1e-8);
  if (!(largest <= limit * scale))
    out.push_back(fmt::format(
        "imex: its exact state does not solve its equation u' = Lin u + N(u, t): at t = {} the "
        "residual du/dt - Lin u - N is {:.3g} of the largest term (above {:.3g}), worst {}",
        t0, largest / scale, limit, describe_entry(layout, residual, worst)));
}

void check_imex(const ImexProblem& p, std::uint64_t seed, double tolerance, Problems& out) {
  const FieldLayout layout = p.layout();
  const std::size_t n = layout.size();
  if (layout.components.empty() || layout.points() == 0) {
    out.push_back(fmt::format("imex: its layout has {} components and {} points: no state",
                              layout.components.size(), layout.points()));
    return;
  }
  // NaN first, so that an entry initial_state() never writes is found with the rest.
  std::vector<double> u(n, std::numeric_limits<double>::quiet_NaN());
  p.initial_state(u, seed);
  if (const auto i = first_non_finite(std::span<const double>(u)); i < n)
    out.push_back(fmt::format("imex: the initial state is not finite (or not written): {}",
                              describe_entry(layout, u, i)));

  const auto ranges = p.ranges();
  if (!ranges.empty() && ranges.size() != layout.components.size())
    out.push_back(fmt::format("imex: it declares {} ranges for {} components", ranges.size(),
                              layout.components.size()));
  else
    for (std::size_t c = 0; c < ranges.size(); ++c) {
      // The core's rule: beyond rounding, 1e-12 of the field's largest magnitude.
      const std::span<const double> field(u.data() + c * layout.points(), layout.points());
      double largest = 0;
      for (double v : field) largest = std::max(largest, std::abs(v));
      const double slack = 1e-12 * largest;
      for (std::size_t i = 0; i < field.size(); ++i)
        if (field[i] < ranges[c].lower - slack || field[i] > ranges[c].upper + slack) {
          out.push_back(fmt::format(
              "imex: the initial state leaves its declared range [{}, {}]: {}", ranges[c].lower,
              ranges[c].upper, describe_entry(layout, u, c * layout.points() + i)));
          break;
        }
    }

  const Operator lin = p.linear_operator();
  const auto& csr = std::get<CsrMatrix<double>>(lin);
  bool lin_usable = false;
  if (csr.rows != n || csr.cols != n) {
    out.push_back(fmt::format("imex: the linear operator is {} x {}, the layout holds {} values",
                              csr.rows, csr.cols, n));
  } else if (csr.row_ptr.size() != n + 1 || std::size_t(csr.row_ptr.back()) != csr.values.size() ||
             csr.col_idx.size() != csr.values.size() ||
             std::any_of(csr.col_idx.begin(), csr.col_idx.end(),
                         [&](std::int32_t j) { return j < 0 || std::size_t(j) >= n; })) {
    out.push_back(
        "imex: the linear operator is not a well-formed CSR matrix (row_ptr, col_idx "
        "and values disagree, or a column is out of range)");
  } else if (const auto row = first_non_finite_row(lin); row < n) {
    out.push_back(fmt::format("imex: the linear operator is not finite (row {})", row));
  } else {
    lin_usable = true;
  }

  auto order = p.band_ordering();
  std::sort(order.begin(), order.end());
  std::vector<std::int32_t> identity(order.empty() ? 0 : n);
  std::iota(identity.begin(), identity.end(), 0);
  if (order != identity)
    out.push_back(fmt::format("imex: its band ordering is not a permutation of its {} values", n));

  if (first_non_finite(std::span<const double>(u)) < n) return;
  std::vector<double> term(n);
  p.explicit_term(0.0, u, term);
  if (const auto i = first_non_finite(std::span<const double>(term)); i < n) {
    out.push_back(fmt::format("imex: the explicit term at the initial state is not finite: {}",
                              describe_entry(layout, term, i)));
    return;
  }
  std::vector<double> exact(n);
  if (!p.exact_state(0.0, exact)) return;
  double d = 0, largest = 0;
  for (std::size_t i = 0; i < n; ++i) {
    d = std::max(d, std::abs(u[i] - exact[i]));
    largest = std::max(largest, std::abs(exact[i]));
  }
  if (!(d <= tolerance * std::max(1.0, largest)))
    out.push_back(
        fmt::format("imex: its exact state at t = 0 differs from its initial state by {:.3g}", d));
  if (lin_usable) check_exact_dynamics(p, layout, lin, tolerance, out);
}

void check_linear(const LinearProblem& p, double tolerance, Problems& out) {
  const auto a = p.matrix();
  if (!a) {
    out.push_back("linear: matrix() returned no operator");
    return;
  }
  const std::size_t n = rows_of(*a);
  const auto form = form_of(*a);
  const std::string what = fmt::format("linear: the {} {} matrix ({} x {})", to_string(form.kind),
                                       to_string(form.scalar), n, cols_of(*a));
  if (cols_of(*a) != n) {
    out.push_back(what + " is not square");
    return;
  }
  if (p.form() != form)
    out.push_back(fmt::format("{}: form() says {} {}", what, to_string(p.form().kind),
                              to_string(p.form().scalar)));
  const auto row = first_non_finite_row(*a);
  if (row < n) out.push_back(fmt::format("{} is not finite (row {})", what, row));

  // Whether v has the system's scalar and length; where not, the sentence saying what it is.
  auto fits = [&](const Vector& v, const std::string& name) {
    const auto [scalar, size] = shape_of(v);
    if (scalar == form.scalar && size == n) return true;
    out.push_back(
        fmt::format("{}: its {} is a {} vector of {}", what, name, to_string(scalar), size));
    return false;
  };
  const Vector b = p.rhs();
  if (!fits(b, "right-hand side")) return;
  std::visit(
      [&](const auto& rhs) {
        using T = typename std::decay_t<decltype(rhs)>::value_type;
        if (const auto i = first_non_finite(std::span<const T>(rhs)); i < n)
          out.push_back(fmt::format("linear: the right-hand side is not finite (row {})", i));
        const auto exact = p.exact_solution();
        // With a non-finite matrix no vector solves the system: that was said above.
        if (!exact || !fits(*exact, "exact solution") || row < n) return;
        const auto& x = std::get<std::vector<T>>(*exact);
        const double r = relative_residual(*a, std::span<const T>(rhs), std::span<const T>(x));
        if (!(r <= tolerance))
          out.push_back(fmt::format(
              "linear: its exact solution does not solve its system: ||b - A x|| / ||b|| = "
              "{:.3g}, above {:.3g}",
              r, tolerance));
      },
      b);
  if (const auto layout = p.layout(); layout && layout->size() != n)
    out.push_back(fmt::format("{}: its layout holds {} values", what, layout->size()));
}

}  // namespace

std::vector<std::string> model_problems(Model& model, std::string& skipped, double tolerance,
                                        std::uint64_t seed) {
  Problems out;
  // A model that throws while it is asked is as broken as one that answers wrongly, and the
  // sentence should say where.
  auto guarded = [&](const char* family, auto check) {
    try {
      check();
    } catch (const std::exception& e) {
      out.push_back(fmt::format("{}: it threw: {}", family, e.what()));
    }
  };
  ImexProblem* imex = model.imex();
  LinearProblem* linear = model.linear();
  if (imex) guarded("imex", [&] { check_imex(*imex, seed, tolerance, out); });
  if (linear) guarded("linear", [&] { check_linear(*linear, tolerance, out); });
  if (!imex && !linear) skipped = "offers neither core family (IMEX, linear system)";
  return out;
}

std::vector<std::string> model_problems(const std::string& name, const Settings& s,
                                        std::string& skipped, double tolerance) {
  auto model = make_model(name, s);
  return model_problems(*model, skipped, tolerance);
}

void check_model(const std::string& name, const Settings& s, double tolerance,
                 std::source_location where) {
  std::string skipped;
  for (const auto& problem : model_problems(name, s, skipped, tolerance))
    ADD_FAIL_CHECK_AT(where.file_name(), static_cast<int>(where.line()), name << ": " << problem);
  if (!skipped.empty()) MESSAGE(name << ": " << skipped);
}

}  // namespace solvent::testkit
