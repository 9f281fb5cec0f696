#pragma once
// Runs members of angiogenesis-1d one by one (imex-trapezoid with banded, the path the
// batched integrators reproduce) and as one batch (imex-batched, imex-batched-cuda), keeping
// each member's final state and observables, for the batched tests.
#include <solvent/ensemble.hpp>
#include <solvent/testkit.hpp>
#include <solvent_test/ensemble_members.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace batch_test {

using solvent::testkit::Settings;

struct MemberRun {
  std::vector<double> state;                    // the last state reported
  std::vector<solvent::Observable> observables;  // with it
  std::int64_t steps = 0;                        // of the last report
  std::string failure;                           // empty: ran to the end
};

using solvent::test::random_members;  // solvent_test/ensemble_members.hpp

MemberRun single_run(const Settings& model, double dt, std::int64_t steps);
// The members as one batch of `integrator`; extra: its other settings (report_every, ...);
// checkpoint: the batch's (solvent/ensemble.hpp), to stop it or continue one. Where the batch
// throws anything but a DivergenceError, `reported` (if given) holds how many members had
// been reported a state by then.
std::vector<MemberRun> batched_run(const std::string& integrator,
                                   const std::vector<Settings>& models, double dt,
                                   std::int64_t steps, const Settings& extra = {},
                                   const solvent::EnsembleCheckpoint& checkpoint = {},
                                   std::size_t* reported = nullptr);

// max_i |a_i - b_i| / max_i |b_i|
double relative_difference(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace batch_test
