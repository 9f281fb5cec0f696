// imex-batched-cuda: members advanced on a GPU against their single runs (imex-trapezoid with
// banded) to 1e-12 relative, a batch that is no multiple of a warp, one of several chunks, a
// member that fails beside the others, and the CPU batch. Without a GPU the test reports itself skipped (exit 77).
#define DOCTEST_CONFIG_IMPLEMENT
#include "batch_runs.hpp"

#include <solvent/solvent.hpp>

#include <doctest/doctest.h>

#include <cstdio>
#include <string>

namespace bt = batch_test;

TEST_CASE("members on the GPU equal their single runs to 1e-12") {
  const auto members = bt::random_members(37, 400, 19);  // 37: one warp and a part of another
  const auto gpu = bt::batched_run("imex-batched-cuda", members, 0.01, 100);
  const auto cpu = bt::batched_run("imex-batched", members, 0.01, 100);
  double worst = 0.0;
  bool bitwise = true;
  for (std::size_t b = 0; b < members.size(); ++b) {
    CHECK(gpu[b].failure.empty());
    CHECK(gpu[b].steps == 100);
    const double d = bt::relative_difference(gpu[b].state, cpu[b].state);
    worst = std::max(worst, d);
    bitwise = bitwise && gpu[b].state == cpu[b].state;
    CHECK(d <= 1e-12);
  }
  for (std::size_t b : {std::size_t{0}, std::size_t{17}, std::size_t{36}})
    CHECK(bt::relative_difference(gpu[b].state, bt::single_run(members[b], 0.01, 100).state) <=
          1e-12);
  MESSAGE("37 members, 100 steps, M = 400: largest relative difference GPU against CPU "
          << worst << std::string(bitwise ? " (bit for bit)" : ""));
}

// The engine takes members a chunk of 1024 at a time while the host assembles the next: 2500
// members (three chunks, the last a part one) land in their places, every one the CPU batch's.
TEST_CASE("members loaded a chunk at a time equal the CPU batch, every one") {
  const auto members = bt::random_members(2500, 20, 29);
  const auto gpu = bt::batched_run("imex-batched-cuda", members, 0.01, 10);
  const auto cpu = bt::batched_run("imex-batched", members, 0.01, 10);
  std::size_t equal = 0;
  for (std::size_t b = 0; b < members.size(); ++b)
    equal += gpu[b].failure.empty() && gpu[b].steps == 10 && gpu[b].state == cpu[b].state;
  CHECK(equal == members.size());
}

TEST_CASE("on the GPU an unstable member fails alone and reports every few steps keep the states") {
  auto members = bt::random_members(5, 100, 23);
  members[3]["parameters.k1"] = 5e3;
  const auto gpu = bt::batched_run("imex-batched-cuda", members, 0.01, 20,
                                   {{"report_every", std::int64_t{20}}});
  const auto cpu = bt::batched_run("imex-batched", members, 0.01, 20);
  MESSAGE("GPU: " << gpu[3].failure);
  CHECK(!gpu[3].failure.empty());
  CHECK(cpu[3].failure.find("at step ") != std::string::npos);
  for (std::size_t b : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{4}}) {
    CHECK(gpu[b].failure.empty());
    CHECK(bt::relative_difference(gpu[b].state, cpu[b].state) <= 1e-12);
  }
}

int main(int argc, char** argv) {
  namespace tk = solvent::testkit;
  try {  // one step of one member: the engine selects the device first
    auto model = tk::make_model("angiogenesis-1d", {{"M", std::int64_t{10}}});
    solvent::Observer observer;
    solvent::PhaseTimer timer;
    solvent::RunContext ctx;
    ctx.observer = &observer;
    ctx.timer = &timer;
    tk::make_integrator("imex-batched-cuda", {{"steps", std::int64_t{1}}})->run(*model, nullptr, ctx);
  } catch (const solvent::DeviceUnavailable& e) {
    std::printf("skipped: %s\n", e.what());
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
