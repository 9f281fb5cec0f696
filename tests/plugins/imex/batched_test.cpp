// imex-batched: members of angiogenesis-1d advanced as one batch repeat their single runs
// (imex-trapezoid with banded) bit for bit — same explicit term (the family's functions),
// same right-hand side order, same gbtrf factors, same substitution (solvent/numerics/band_lu.hpp)
// — whatever the batch size, the report interval or a member that fails beside them.
#include "batch_runs.hpp"

#include <solvent/solvent.hpp>

#include <doctest/doctest.h>

#include <filesystem>

namespace bt = batch_test;
namespace tk = solvent::testkit;

TEST_CASE("batched members equal their single runs bit for bit") {
  const auto members = bt::random_members(6, 200, 7);
  const auto batch = bt::batched_run("imex-batched", members, 0.01, 30);
  REQUIRE(batch.size() == members.size());
  double worst = 0.0;
  for (std::size_t b = 0; b < members.size(); ++b) {
    const auto single = bt::single_run(members[b], 0.01, 30);
    CHECK(batch[b].failure.empty());
    CHECK(batch[b].steps == 30);
    worst = std::max(worst, bt::relative_difference(batch[b].state, single.state));
    CHECK(batch[b].state == single.state);
    REQUIRE(batch[b].observables.size() == single.observables.size());
    for (std::size_t o = 0; o < single.observables.size(); ++o) {
      CHECK(batch[b].observables[o].name == single.observables[o].name);
      CHECK(batch[b].observables[o].value == single.observables[o].value);
    }
  }
  MESSAGE("largest relative difference over 6 members: " << worst);
  // The members differ from one another, so equality above is no accident of one state.
  CHECK(bt::relative_difference(batch[0].state, batch[1].state) > 1e-3);
}

TEST_CASE("a batch of one is the default experiment's single run") {
  const bt::Settings model{{"M", std::int64_t{400}}};
  const auto batch = bt::batched_run("imex-batched", {model}, 0.01, 100);
  const auto single = bt::single_run(model, 0.01, 100);
  CHECK(batch[0].state == single.state);
}

TEST_CASE("report_every reports fewer steps, the last one always, with the same state") {
  const auto members = bt::random_members(3, 100, 11);
  const auto every = bt::batched_run("imex-batched", members, 0.01, 20);
  const auto sparse =
      bt::batched_run("imex-batched", members, 0.01, 20, {{"report_every", std::int64_t{7}}});
  for (std::size_t b = 0; b < members.size(); ++b) {
    CHECK(sparse[b].steps == 20);
    CHECK(sparse[b].state == every[b].state);
  }
}

TEST_CASE("an unstable member fails alone, at the step its single run fails") {
  auto members = bt::random_members(4, 100, 3);
  members[0]["parameters.k1"] = 5e3;  // forward Euler on k1 C (1 - C): dt k1 = 50, unstable
  members[2]["parameters.k1"] = 5e3;
  const auto batch = bt::batched_run("imex-batched", members, 0.01, 20);
  std::string single_failure;
  try {
    bt::single_run(members[0], 0.01, 20);
  } catch (const solvent::DivergenceError& e) {
    single_failure = e.what();
  }
  REQUIRE(!single_failure.empty());
  MESSAGE("single: " << single_failure);
  MESSAGE("batched: " << batch[0].failure);
  REQUIRE(!batch[0].failure.empty());
  CHECK(!batch[2].failure.empty());
  // Both name the same step.
  const auto step_of = [](const std::string& text) {
    const auto at = text.find("at step ");
    return at == std::string::npos ? std::string() : text.substr(at, text.find(' ', at + 8) - at);
  };
  CHECK(step_of(batch[0].failure) == step_of(single_failure));
  CHECK(step_of(batch[0].failure) != "");
  for (std::size_t b : {std::size_t{1}, std::size_t{3}}) {
    CHECK(batch[b].failure.empty());
    CHECK(batch[b].state == bt::single_run(members[b], 0.01, 20).state);
  }
}

// The members reach the engine 1024 at a time (the chunked assembly a GPU batch overlaps with
// its copies): 2500 members are three chunks, the last a part one.
TEST_CASE("members over several chunks: their single runs, a failure in the last chunk alone") {
  auto members = bt::random_members(2500, 20, 13);
  members[2100]["parameters.k1"] = 5e3;
  const auto batch = bt::batched_run("imex-batched", members, 0.01, 10);
  for (std::size_t b : {std::size_t{0}, std::size_t{1023}, std::size_t{1024}, std::size_t{2499}}) {
    CAPTURE(b);
    CHECK(batch[b].failure.empty());
    CHECK(batch[b].state == bt::single_run(members[b], 0.01, 10).state);
  }
  std::size_t failed = 0;
  for (const auto& run : batch) failed += !run.failure.empty();
  CHECK(failed == 1);
  CHECK(batch[2100].failure.find("at step ") != std::string::npos);
}

// A batch stopped after its first report and continued from its checkpoint ends where the
// uninterrupted batch ends, every member of every chunk bit for bit.
TEST_CASE("a batch of several chunks stopped and continued ends as the uninterrupted one") {
  const auto members = bt::random_members(2100, 20, 17);
  const bt::Settings every5{{"report_every", std::int64_t{5}}};
  const auto whole = bt::batched_run("imex-batched", members, 0.01, 10, every5);
  solvent::EnsembleCheckpoint checkpoint;
  checkpoint.file = std::filesystem::temp_directory_path() / "imex-batched-chunks.bin";
  checkpoint.writer = "batched-test";
  checkpoint.stop = [] { return true; };
  const auto stopped = bt::batched_run("imex-batched", members, 0.01, 10, every5, checkpoint);
  CHECK(stopped[2099].steps == 5);
  checkpoint.stop = nullptr;
  checkpoint.resume = true;
  const auto continued = bt::batched_run("imex-batched", members, 0.01, 10, every5, checkpoint);
  std::filesystem::remove(checkpoint.file);
  std::size_t equal = 0;
  for (std::size_t b = 0; b < members.size(); ++b)
    equal += continued[b].steps == 10 && continued[b].state == whole[b].state &&
             stopped[b].state != whole[b].state;
  CHECK(equal == members.size());
}

TEST_CASE("members that cannot share a batch are refused with their reason") {
  auto members = bt::random_members(2, 100, 5);
  members[1]["M"] = std::int64_t{120};
  CHECK_THROWS_WITH_AS(bt::batched_run("imex-batched", members, 0.01, 2),
                       doctest::Contains("member 1 has M = 120"), solvent::SolverError);
  // In a later chunk, while an earlier one is being loaded: no member has reported anything
  // (every member is checked before the first output).
  auto many = bt::random_members(1500, 20, 5);
  many[1300]["M"] = std::int64_t{24};
  std::size_t reported = 1;
  CHECK_THROWS_WITH_AS(bt::batched_run("imex-batched", many, 0.01, 2, {}, {}, &reported),
                       doctest::Contains("member 1300 has M = 24, member 0 M = 20"),
                       solvent::SolverError);
  CHECK(reported == 0);
  auto manufactured = tk::make_model("angiogenesis-1d", {{"mode", std::string("manufactured")}});
  std::string why;
  CHECK_FALSE(tk::make_integrator("imex-batched", {})->accepts(*manufactured, why));
  CHECK(why.find("manufactured") != std::string::npos);
  auto grid = tk::make_model("grid-equations-3d", {});
  CHECK_FALSE(tk::make_integrator("imex-batched", {})->accepts(*grid, why));
  CHECK(why.find("angiogenesis-1d") != std::string::npos);
}
