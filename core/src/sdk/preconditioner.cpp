#include <solvent/conversion.hpp>
#include <solvent/errors.hpp>
#include <solvent/preconditioner.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace solvent {

struct Preconditioner::State {
  // The form and size of the operator of the last setup or refresh that succeeded; empty
  // before one and after one failed, when there is nothing to apply.
  std::optional<OperatorForm> form;
  std::size_t rows = 0;
};

Preconditioner::Preconditioner() : state_(std::make_unique<State>()) {}
Preconditioner::~Preconditioner() = default;

namespace {

// Throws UnsupportedOperator naming the operator's form and the declared ones.
void require_declared(const Operator& a, const std::vector<OperatorForm>& forms) {
  const auto given = form_of(a);
  if (std::find(forms.begin(), forms.end(), given) != forms.end()) return;
  throw UnsupportedOperator(
      fmt::format("the preconditioner cannot be built from a {} {} operator (it takes: {})",
                  to_string(given.scalar), to_string(given.kind), describe_forms(forms)));
}

}  // namespace

void Preconditioner::setup(std::shared_ptr<const Operator> a) {
  auto& s = *state_;
  if (!a) throw SolverError("setup() was given no operator");
  s.form.reset();
  require_declared(*a, forms());
  const auto form = form_of(*a);
  const auto rows = rows_of(*a);
  setup_impl(std::move(a));
  s.form = form;
  s.rows = rows;
}

void Preconditioner::refresh(std::shared_ptr<const Operator> a) {
  auto& s = *state_;
  if (!a) throw SolverError("refresh() was given no operator");
  // refresh_impl may keep what depends on the pattern only; without a set-up M of this form
  // and size there is nothing to keep.
  if (!s.form || *s.form != form_of(*a) || s.rows != rows_of(*a)) return setup(std::move(a));
  // The form of the last setup, so one setup checked against forms().
  const auto form = *s.form;
  s.form.reset();
  refresh_impl(std::move(a));
  s.form = form;
}

template <class T>
void Preconditioner::checked_apply(std::span<const T> r, std::span<T> z) const {
  const auto& s = *state_;
  if (!s.form) throw SolverError("apply() was called before setup()");
  if (s.form->scalar != scalar_kind_of<T>)
    throw UnsupportedOperator(fmt::format("the operator is {} but the vectors are {}",
                                          to_string(s.form->scalar), to_string(scalar_kind_of<T>)));
  if (r.size() != s.rows || z.size() != s.rows)
    throw SolverError(fmt::format("vectors of length {} (r) and {} (z) for an operator of {} rows",
                                  r.size(), z.size(), s.rows));
  apply_impl(r, z);
}

void Preconditioner::apply(std::span<const double> r, std::span<double> z) const {
  checked_apply(r, z);
}
void Preconditioner::apply(std::span<const complex> r, std::span<complex> z) const {
  checked_apply(r, z);
}

void Preconditioner::refresh_impl(std::shared_ptr<const Operator> a) { setup_impl(std::move(a)); }

void Preconditioner::apply_impl(std::span<const double>, std::span<double>) const {
  throw UnsupportedOperator("this preconditioner does not apply to real vectors");
}
void Preconditioner::apply_impl(std::span<const complex>, std::span<complex>) const {
  throw UnsupportedOperator("this preconditioner does not apply to complex vectors");
}

}  // namespace solvent
