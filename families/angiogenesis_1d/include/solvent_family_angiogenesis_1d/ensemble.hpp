#pragma once
// How members of the 1D model reach a batched IMEX integrator (imex-batched, imex-batched-cuda),
// through Model::extension alone, so neither the core's interfaces nor its ABI change:
// every angiogenesis-1d model offers MemberFamily, its `const Member` (its
// coefficients and grid, which the batched engines need beside the core's ImexProblem, whose
// linear_operator, band_ordering, initial_state, project and observables they use as a single
// run does), and solvent::EnsembleFamily, the `solvent::Ensemble` a runner
// fills with the members batched with it (solvent/ensemble.hpp).
#include <solvent/ensemble.hpp>
#include <solvent_family_angiogenesis_1d/coefficients.hpp>

#include <cstdint>

namespace solvent::angiogenesis_1d {

// One model's coefficients and grid; the arrays live as long as the model.
struct Member {
  Coefficients k;
  std::int64_t m;         // grid points
  double h;               // 1 / (m - 1)
  const double* taf;      // T(x_i), m values
  const double* taf_flux;  // T_x / (1 + a4 T) at i + 1/2, m - 1 values
  bool manufactured;      // mode = "manufactured": its source terms are not batched
};

struct MemberFamily {
  using type = const Member;
  static constexpr const char* name = "angiogenesis-1d/member/1";
};

}  // namespace solvent::angiogenesis_1d
