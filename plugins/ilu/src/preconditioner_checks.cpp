#include "src/preconditioner_checks.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace solvent::ilu {
namespace {
std::string describe(OperatorForm f) {
  return fmt::format("{} {}", to_string(f.kind), to_string(f.scalar));
}
}  // namespace

void require_form(const Operator& a, const std::vector<OperatorForm>& forms, const char* plugin) {
  const OperatorForm given = form_of(a);
  if (std::find(forms.begin(), forms.end(), given) != forms.end()) return;
  std::string taken;
  for (const auto& f : forms) taken += (taken.empty() ? "" : ", ") + describe(f);
  throw UnsupportedOperator(
      fmt::format("{}: cannot use a {} operator (takes {})", plugin, describe(given), taken));
}

void check_apply(std::optional<ScalarKind> set_up_for, ScalarKind given, std::size_t n,
                 std::size_t r_size, std::size_t z_size, const char* plugin) {
  if (!set_up_for) throw SolverError(fmt::format("{}: apply() before setup()", plugin));
  if (given != *set_up_for)
    throw UnsupportedOperator(fmt::format("{}: set up for a {} operator, applied to {} vectors",
                                          plugin, to_string(*set_up_for), to_string(given)));
  if (r_size != n || z_size != n)
    throw SolverError(fmt::format("{}: vectors of length {} and {} for a {} x {} operator", plugin,
                                  r_size, z_size, n, n));
}

}  // namespace solvent::ilu
