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
//
// A batch stopped part way (a sweep stopped by SIGINT or SIGTERM) keeps every member's state
// in one checkpoint, and a later batch of the same members continues from it (`solvent run
// --resume`): the runner names the file and what must have written it (`checkpoint`), and
// the integrator writes and reads it in the SDK's time-stepper format
// (solvent/io/checkpoint.hpp), since only it knows what its step loop carries.
#include <solvent/integrator.hpp>
#include <solvent/model.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace solvent {

struct EnsembleMember {
  Model* model = nullptr;
  RunContext* context = nullptr;
  RunResult result{};
  std::string failure;  // empty: the member ran to the end
};

struct EnsembleCheckpoint {
  // Empty: the batch runs to its end, from the members' initial states.
  std::filesystem::path file;
  // The file's writer: the runner's name for the batch (its integrator, its members and
  // their configurations); continuing, a file of another writer is refused (InputError).
  std::string writer;
  // Continue from `file` (every member reports its step again, as a resumed run does)
  // instead of from the initial states.
  bool resume = false;
  // Asked after each step reported to every member: true makes the integrator write `file`
  // at that step, set `stopped` and return, every member's result at that step.
  std::function<bool()> stop;
  bool stopped = false;
};

struct Ensemble {
  std::vector<EnsembleMember> others;  // the members after the one that carries the list
  EnsembleCheckpoint checkpoint;
};

struct EnsembleFamily {
  using type = Ensemble;
  // 2: the checkpoint of a stopped batch.
  static constexpr const char* name = "solvent/ensemble/2";
};

}  // namespace solvent
