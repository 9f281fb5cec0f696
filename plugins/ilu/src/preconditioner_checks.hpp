#pragma once
// What both ILU(0) plugins check on the host: that a storage was declared, and that an
// apply() fits what was set up.
#include <solvent/operator.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace solvent::ilu {

// Throws UnsupportedOperator, naming the plugin, the storage given and the ones it takes,
// when form_of(a) is not among `forms`.
void require_form(const Operator& a, const std::vector<OperatorForm>& forms, const char* plugin);

// Before z = M^{-1} r: setup() succeeded (set_up_for holds the operator's scalar type) for
// an operator of r's scalar type and of n rows.
void check_apply(std::optional<ScalarKind> set_up_for, ScalarKind given, std::size_t n,
                 std::size_t r_size, std::size_t z_size, const char* plugin);

}  // namespace solvent::ilu
