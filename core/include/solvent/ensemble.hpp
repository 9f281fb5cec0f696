#pragma once
// Several runs of one model family advanced by one call of a batched integrator (the members
// of an ensemble or of a sweep that share the model's size, dt and steps). A runner makes one
// model, one observer and one RunContext per member as for single runs, lists all but the
// first in the first model's Ensemble — the model offers it as EnsembleFamily
// (family<EnsembleFamily>(model)) — and calls the batched integrator's
// run(first model, nullptr, first context) once. The integrator reports each member to its
// own observer, returns the first member's result and leaves the others' in the list; a
// member that fails stops alone with its message in `failure`, and a failure of the first is
// thrown after the batch, as a single run would throw it. A model offers the extension only
// where a batched integrator of its family exists (angiogenesis-1d: imex-batched).
#include <solvent/integrator.hpp>
#include <solvent/model.hpp>

#include <string>
#include <vector>

namespace solvent {

struct EnsembleMember {
  Model* model = nullptr;
  RunContext* context = nullptr;
  RunResult result{};
  std::string failure;  // empty: the member ran to the end
};

struct Ensemble {
  std::vector<EnsembleMember> others;  // the members after the one that carries the list
};

struct EnsembleFamily {
  using type = Ensemble;
  static constexpr const char* name = "solvent/ensemble/1";
};

}  // namespace solvent
