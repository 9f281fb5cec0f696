#include <solvent/direct_solver.hpp>
#include <solvent/errors.hpp>
#include <solvent/linear_solver.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <type_traits>

namespace solvent {

namespace {
template <class T>
struct PermutedVectors {
  std::vector<T> b, x;
};
}  // namespace

struct LinearSolver::State {
  SolverPolicy policy;
  std::shared_ptr<const Operator> given;  // what setup got: the residual is checked against it
  std::shared_ptr<const Operator> op;     // what setup_impl got (converted, maybe permuted)
  std::vector<std::int32_t> permutation;
  std::string conversion;
  std::shared_ptr<Preconditioner> pc;
  std::shared_ptr<const Operator> pc_op;  // what the preconditioner was last set up with
  bool pc_ready = false;
  PerScalar<PermutedVectors<double>, PermutedVectors<complex>> work;
  std::optional<SolveStats> last;
  std::int64_t solves = 0;
  std::function<std::string(const GridBlocks&)> blocks_rule;
  IterationExchanges exchanges;
};

namespace {

template <class T>
std::string entry_text(std::span<const T> v, std::size_t i) {
  if constexpr (std::is_same_v<T, double>)
    return fmt::format("row {} = {}", i, v[i]);
  else
    return fmt::format("row {} = ({}, {})", i, v[i].real(), v[i].imag());
}

// Same storage, size and pattern: the preconditioner may keep its symbolic work.
bool same_pattern(const Operator& a, const Operator& b) {
  if (a.index() != b.index() || rows_of(a) != rows_of(b)) return false;
  return std::visit(
      [&](const auto& x) {
        using M = std::decay_t<decltype(x)>;
        const auto& y = std::get<M>(b);
        if constexpr (requires { x.row_ptr; })
          return x.row_ptr == y.row_ptr && x.col_idx == y.col_idx &&
                 x.distribution == y.distribution;
        else if constexpr (requires { x.kl; })
          return x.kl == y.kl && x.ku == y.ku;
        else if constexpr (requires { x.n1; })
          return x.n1 == y.n1 && x.n2 == y.n2 && x.n3 == y.n3;
        else if constexpr (requires { x.cols; })
          return x.cols == y.cols;
        else
          return false;  // matrix-free: nothing to compare
      },
      a);
}

}  // namespace

LinearSolver::LinearSolver() : state_(std::make_unique<State>()) {}
LinearSolver::~LinearSolver() = default;

bool LinearSolver::accepts(OperatorForm form) const {
  const auto f = forms();
  return std::find(f.begin(), f.end(), form) != f.end();
}

void LinearSolver::set_policy(SolverPolicy policy) { state_->policy = std::move(policy); }

std::string LinearSolver::blocks_problem(const GridBlocks& blocks) const {
  return state_->blocks_rule ? state_->blocks_rule(blocks) : std::string();
}

void LinearSolver::refuse_blocks(std::function<std::string(const GridBlocks&)> why) {
  state_->blocks_rule = std::move(why);
}

IterationExchanges LinearSolver::exchanges_per_iteration() const { return state_->exchanges; }

void LinearSolver::state_exchanges(IterationExchanges exchanges) {
  state_->exchanges = exchanges;
}

void LinearSolver::report_iteration(std::int64_t iteration, double residual) const {
  if (state_->policy.on_iteration) state_->policy.on_iteration(iteration, residual);
}

void LinearSolver::set_preconditioner(std::shared_ptr<Preconditioner> pc) {
  state_->pc = std::move(pc);
  state_->pc_op.reset();
  state_->pc_ready = false;
}

const std::string& LinearSolver::conversion() const { return state_->conversion; }

std::optional<OperatorForm> LinearSolver::working_form() const {
  if (!state_->op) return std::nullopt;
  return form_of(*state_->op);
}

const Preconditioner* LinearSolver::preconditioner() const {
  return state_->pc_ready ? state_->pc.get() : nullptr;
}

void LinearSolver::setup(std::shared_ptr<const Operator> op, const OperatorHints& hints) {
  auto& s = *state_;
  if (!op) throw SolverError("setup() was given no operator");
  // A dense or CSR matrix given by a program (a SciPy one from Python) may be wide or tall;
  // refused here, before a solver or a conversion (whose sizes assume a square) meets it.
  // The other storages are square by construction, and so is a CSR over ranks, whose
  // columns on a rank include its ghosts.
  std::visit(
      [](const auto& a) {
        bool local = true;
        if constexpr (requires { a.distributed(); }) local = !a.distributed();
        if constexpr (requires { a.cols; })
          if (local && a.rows != a.cols)
            throw SolverError(fmt::format("the matrix is {} x {}, not square", a.rows, a.cols));
      },
      *op);
  s.op.reset();
  s.given.reset();
  s.pc_ready = false;
  const auto from = form_of(*op);
  const auto my_forms = forms();
  const auto target = reachable_form(my_forms, from);
  if (!target)
    throw UnsupportedOperator(fmt::format(
        "it cannot use a {} {} operator (it takes: {}), and the core cannot convert one to any of "
        "those",
        to_string(from.scalar), to_string(from.kind), describe_forms(my_forms)));
  auto options = s.policy.conversion;
  options.band_ordering = hints.band_ordering;
  std::shared_ptr<const Operator> mine = op;
  s.permutation.clear();
  s.conversion.clear();
  if (target->kind != from.kind) {
    auto converted = convert(*op, target->kind, options);
    mine = std::make_shared<const Operator>(std::move(converted.op));
    s.permutation = std::move(converted.permutation);
    s.conversion = std::move(converted.description);
    if (s.policy.on_conversion) s.policy.on_conversion(s.conversion);
  }
  if (s.pc) {
    if (!uses_preconditioner())
      throw UnsupportedOperator("it applies no preconditioner, but one was configured");
    const auto pc_forms = s.pc->forms();
    const auto pc_target = reachable_form(pc_forms, form_of(*mine));
    if (!pc_target)
      throw UnsupportedOperator(fmt::format(
          "the preconditioner cannot be built from a {} {} operator (it takes: {})",
          to_string(from.scalar), to_string(form_of(*mine).kind), describe_forms(pc_forms)));
    auto pc_op = mine;
    if (pc_target->kind != form_of(*mine).kind)
      pc_op = std::make_shared<const Operator>(convert(*mine, pc_target->kind, options).op);
    if (s.pc_op && same_pattern(*s.pc_op, *pc_op))
      s.pc->refresh(pc_op);
    else
      s.pc->setup(pc_op);
    s.pc_op = pc_op;
    s.pc_ready = true;
  }
  setup_impl(mine);
  s.op = std::move(mine);
  s.given = std::move(op);
}

template <class T>
SolveStats LinearSolver::checked_solve(std::span<const T> b, std::span<T> x) {
  auto& s = *state_;
  if (!s.op) throw SolverError("solve() was called before setup()");
  if (scalar_of(*s.op) != scalar_kind_of<T>)
    throw UnsupportedOperator(fmt::format("the operator is {} but the right-hand side is {}",
                                          to_string(scalar_of(*s.op)),
                                          to_string(scalar_kind_of<T>)));
  const std::size_t n = rows_of(*s.op);
  if (b.size() != n || x.size() != n)
    throw SolverError(fmt::format("vectors of length {} (b) and {} (x) for an operator of {} rows",
                                  b.size(), x.size(), n));
  if (const auto i = first_non_finite(b); i < n)
    throw SolverError(fmt::format("the right-hand side is not finite ({})", entry_text(b, i)));
  std::span<const T> pb = b;
  std::span<T> px = x;
  auto& work = s.work.template get<T>();
  if (!s.permutation.empty()) {
    work.b.resize(n);
    work.x.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      work.b[i] = b[std::size_t(s.permutation[i])];
      work.x[i] = x[std::size_t(s.permutation[i])];
    }
    pb = work.b;
    px = work.x;
  }
  SolveStats stats = solve_impl(pb, px);
  if (!s.permutation.empty())
    for (std::size_t i = 0; i < n; ++i) x[std::size_t(s.permutation[i])] = work.x[i];
  // A non-finite solution is the solver's failure (a singular or overflowing factorisation it
  // did not catch), never a result: exit 5, not a record of a finished run.
  if (const auto i = first_non_finite(std::span<const T>(x)); i < n)
    throw SolverError(fmt::format("the solution is not finite ({}; solver status '{}')",
                                  entry_text(std::span<const T>(x), i), stats.status));
  // Against the operator as given, before any conversion: the check covers the conversion
  // too, and the given storage is usually the cheaper one to apply (CSR against a band).
  if (std::isnan(stats.residual) && s.policy.verify_residual) {
    stats.residual = relative_residual(*s.given, b, std::span<const T>(x));
    if (!std::isfinite(stats.residual)) {
      stats.converged = false;
      stats.status = "non-finite residual";
    }
  }
  ++s.solves;
  s.last = stats;
  s.last->residual_history.clear();  // the summary needs the figures, not the history
  return stats;
}

const std::optional<SolveStats>& LinearSolver::last_solve() const { return state_->last; }
std::int64_t LinearSolver::solves() const { return state_->solves; }

SolveStats LinearSolver::solve(std::span<const double> b, std::span<double> x) {
  return checked_solve(b, x);
}
SolveStats LinearSolver::solve(std::span<const complex> b, std::span<complex> x) {
  return checked_solve(b, x);
}

SolveStats LinearSolver::solve_impl(std::span<const double>, std::span<double>) {
  throw UnsupportedOperator("this linear solver does not solve real systems");
}
SolveStats LinearSolver::solve_impl(std::span<const complex>, std::span<complex>) {
  throw UnsupportedOperator("this linear solver does not solve complex systems");
}

}  // namespace solvent
