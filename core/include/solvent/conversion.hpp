#pragma once
// Conversions between operator storages, done by the core when a solver or preconditioner
// cannot use the storage it is given (LinearSolver::setup). Every assembled storage goes to
// CSR; CSR goes to dense (guarded by a memory limit) and to banded (in a band ordering when
// the producer knows one, else in the natural one, with the same guard). Nothing becomes a
// seven-point stencil, and a matrix-free operator becomes nothing: a solver that needs
// entries cannot use it.
#include <solvent/operator.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace solvent {

struct ConversionOptions {
  // The most bytes a converted operator may take; a conversion that needs more is refused
  // before anything is allocated, as a ConfigError (exit 2): the limit is a setting, and the
  // way out is a setting too (raise it, or choose a solver of the operator's own storage).
  std::size_t max_bytes = std::size_t(2) << 30;
  // A permutation p (new index -> old index) under which the operator is banded; empty:
  // the natural ordering.
  std::vector<std::int32_t> band_ordering;
};

// Whether the core can turn an operator of form `from` into storage `to` at all (sizes
// aside: those are known only to convert()).
bool can_convert(OperatorForm from, OperatorKind to);

// The first of `forms` (a solver's or preconditioner's, most preferred first) that an
// operator of form `given` is or can be converted to; none when no storage fits.
std::optional<OperatorForm> reachable_form(const std::vector<OperatorForm>& forms,
                                           OperatorForm given);

// "real csr, complex csr": forms as messages name them.
std::string describe_forms(const std::vector<OperatorForm>& forms);

struct Converted {
  Operator op;
  // Non-empty when op is the operator permuted to P A P^T with P given by this permutation
  // (new index -> old index); solves must then permute b in and x out.
  std::vector<std::int32_t> permutation;
  std::string description;  // "csr -> banded (kl = 3, ku = 3, model's band ordering)"
};

// Converts `a` to storage `to`. Throws UnsupportedOperator naming both storages and why
// (not convertible; more than max_bytes, with the amount).
Converted convert(const Operator& a, OperatorKind to, const ConversionOptions& options);

}  // namespace solvent
