#pragma once
// sweep.csv: one row per member, formed from the member's own run record (so that a resumed
// sweep forms the rows of the members an earlier process ran exactly as it would have):
//   member, <each swept key>, status (ok / failed), exit_reason, wall_s,
//   <each number of the records' [result]: steps, t, and, for a steady solve, iterations,
//    relative_residual, converged, solver_status>,
//   <each final observable the members' records report, by name>
#include "sweep/member_processes.hpp"
#include "sweep/sweep_plan.hpp"

#include <map>
#include <optional>

namespace solvent {

struct MemberRow {
  bool ok = false;
  std::string reason;  // "completed", the record's message, or how the process ended
  double wall = 0.0;   // the record's wall time, else the process's
  // As text, by name: the record's [result] values, and its [result] final_observables.
  std::map<std::string, std::string> result, observables;
};

// Whether the member's directory holds a finished record: it completed or failed (a record
// that says "running" or "interrupted" is a member to run again).
bool member_finished(const std::filesystem::path& dir);

// The row of a member that has ended. `end` is how its process ended, where this sweep ran
// it: it explains a member that left no finished record (a crash, a refused start).
MemberRow member_row(const std::filesystem::path& members_dir, std::size_t member,
                     const std::optional<MemberEnd>& end);

// The whole table, rows in member order; members without a row yet are left out.
std::string sweep_csv(const SweepPlan& plan, const std::vector<std::optional<MemberRow>>& rows);

}  // namespace solvent
