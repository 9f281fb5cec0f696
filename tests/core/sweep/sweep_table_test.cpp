// sweep.csv from the members' records: the columns (swept keys, status, reason, wall time,
// every value of [result], every final observable), CSV quoting, a member that left no
// finished record, and which members count as finished.
#include "sweep/sweep_table.hpp"

#include <doctest/doctest.h>

#include <fstream>

using namespace solvent;
namespace fs = std::filesystem;

namespace {

void record(const fs::path& members, std::size_t i, const std::string& text) {
  const auto dir = member_dir(members, i);
  fs::create_directories(dir);
  std::ofstream(dir / "record.toml") << text;
}

}  // namespace

TEST_CASE("sweep.csv: one row a member, from its record") {
  const auto members = fs::temp_directory_path() / "solvent-sweep-table-test" / "members";
  fs::remove_all(members.parent_path());
  record(members, 0, R"([run]
status = "completed"
[seconds]
wall = 1.5
[result]
steps = 1
t = 0.0
iterations = 18
converged = true
relative_residual = 5.8060465090827475e-09
[result.final_observables]
error_max = 0.1
)");
  record(members, 1, R"([run]
status = "failed"
message = "the step is unstable, reduce dt: \"dt\" = 1"
[seconds]
wall = 0.25
[result]
steps = 3
t = 0.30000000000000004
[result.final_observables]
mass_C = 2.0
)");
  record(members, 2, "[run]\nstatus = \"running\"\n");
  std::ofstream(member_log(members, 3)) << "[info] starting\nerror: cannot read input.mtx\n";

  CHECK(member_finished(member_dir(members, 0)));
  CHECK(member_finished(member_dir(members, 1)));
  CHECK_FALSE(member_finished(member_dir(members, 2)));
  CHECK_FALSE(member_finished(member_dir(members, 3)));

  SweepPlan plan;
  plan.keys.push_back({{"model", "M"}, "model.M", "", 0, 0});
  for (const auto* m : {"10", "20", "30", "40"}) plan.members.push_back({{m, m}});
  std::vector<std::optional<MemberRow>> rows(4);
  rows[0] = member_row(members, 0, MemberEnd{0, 0, 9.0});
  rows[1] = member_row(members, 1, std::nullopt);
  rows[2] = member_row(members, 2, MemberEnd{2, 128 + 11, 0.5});
  rows[3] = member_row(members, 3, MemberEnd{3, 2, 0.125});
  CHECK(sweep_csv(plan, rows) ==
        "member,model.M,status,exit_reason,wall_s,steps,t,converged,iterations,relative_residual,"
        "error_max,mass_C\n"
        "0,10,ok,completed,1.5,1,0,true,18,5.8060465090827475e-09,0.1,\n"
        "1,20,failed,\"the step is unstable, reduce dt: \"\"dt\"\" = 1\",0.25,3,"
        "0.30000000000000004,,,,,2\n"
        "2,30,failed,ended by SIGSEGV before its record was finished,0.5,,,,,,,\n"
        "3,40,failed,cannot read input.mtx,0.125,,,,,,,\n");
  rows[1].reset();  // a member without a row yet is left out
  CHECK(sweep_csv(plan, rows).find("\n1,") == std::string::npos);
}
