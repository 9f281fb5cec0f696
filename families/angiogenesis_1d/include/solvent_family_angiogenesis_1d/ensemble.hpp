#pragma once
// How members of the 1D model reach a batched IMEX integrator (imex-batched, imex-batched-cuda),
// through Model::extension alone, so neither the core's interfaces nor its ABI change.
//
// - Every angiogenesis-1d model answers member_extension_name with a `const Member*`: its
//   coefficients and grid, which the batched engines need beside the core's ImexProblem
//   (whose linear_operator, band_ordering, initial_state, project and observables they use
//   as a single run does).
// - A runner that advances several members together (a sweep's batch, the ensemble
//   benchmark) makes one model, one observer and one RunContext per member as for single
//   runs, lists all but the first in the first model's Ensemble (ensemble_extension_name
//   returns an `Ensemble*` the runner fills) and calls the batched integrator's
//   run(first model, nullptr, first context) once. The integrator reports each member to its
//   own observer, returns the first member's result and leaves the others' in the list. A
//   member that fails (non-finite state, a projection over its limit) stops there with its
//   message in `failure`; the others go on. A failure of the first member is thrown after
//   the batch, as a single run would throw it.
#include <solvent/integrator.hpp>
#include <solvent/model.hpp>
#include <solvent_family_angiogenesis_1d/coefficients.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace solvent::angiogenesis_1d {

inline constexpr const char* member_extension_name = "angiogenesis-1d/member/1";
inline constexpr const char* ensemble_extension_name = "angiogenesis-1d/ensemble/1";

// One model's coefficients and grid; the arrays live as long as the model.
struct Member {
  Coefficients k;
  std::int64_t m;         // grid points
  double h;               // 1 / (m - 1)
  const double* taf;      // T(x_i), m values
  const double* taf_flux;  // T_x / (1 + a4 T) at i + 1/2, m - 1 values
  bool manufactured;      // mode = "manufactured": its source terms are not batched
};

struct EnsembleMember {
  Model* model = nullptr;
  RunContext* context = nullptr;
  RunResult result{};
  std::string failure;  // empty: the member ran to the end
};

struct Ensemble {
  std::vector<EnsembleMember> others;  // the members after the one that carries the list
};

}  // namespace solvent::angiogenesis_1d
