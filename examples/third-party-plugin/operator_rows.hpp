#pragma once
// The two things Jacobi needs from a matrix, for the dense and CSR forms: its diagonal
// and the residual b - A x. Kept apart from the iteration so adding a storage form
// touches only this file.
#include <solvent/solvent.hpp>

#include <span>
#include <vector>

namespace acme {

// The diagonal of a square dense or CSR matrix of scalar T. Throws SolverError naming the
// row if an entry is zero (Jacobi divides by it) and UnsupportedOperator for other forms.
template <class T>
std::vector<T> diagonal_of(const solvent::Operator& op);

// r = b - A x; returns ||r||_2.
template <class T>
double residual(const solvent::Operator& op, std::span<const T> b, std::span<const T> x,
                std::span<T> r);

}  // namespace acme
