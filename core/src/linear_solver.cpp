#include <solvent/errors.hpp>
#include <solvent/linear_solver.hpp>

namespace solvent {

SolveStats LinearSolver::solve(std::span<const double>, std::span<double>) {
  throw UnsupportedOperator("this linear solver does not solve real systems");
}
SolveStats LinearSolver::solve(std::span<const complex>, std::span<complex>) {
  throw UnsupportedOperator("this linear solver does not solve complex systems");
}

}  // namespace solvent
