// The order-independent resolution of one step's tip claims (anastomosis, cancelled
// branches) and the commit of segments, vessel nodes and new tips; the CPU engine, which
// settles only the tips that move or branch, against settling every tip slot.
#include <solvent_stencil3d/stencil_engine.hpp>
#include <solvent_stencil3d/tip_phases.hpp>
#include <solvent_test/angiogenesis_3d_runs.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <vector>

using namespace solvent::stencil3d;

namespace {

// A 5^3 grid with two sprouts: tip 0 at node a, tip 1 at node b.
struct Scene {
  Grid g{5, 5, 5};
  std::vector<std::int32_t> owner = std::vector<std::int32_t>(125, -1);
  std::vector<std::int32_t> node{g.index(1, 2, 2), g.index(3, 2, 2), 0, 0};
  std::vector<std::int64_t> birth{0, 0, 0, 0};
  std::vector<std::int32_t> active{1, 1, 0, 0};
  std::vector<std::int32_t> segments = std::vector<std::int32_t>(16, -1);
  std::vector<std::int32_t> vessel = std::vector<std::int32_t>(8, -1);
  std::vector<std::int32_t> target{-1, -1}, site{-1, -1};
  NetworkCounters counters{2, 2, 0, 0, 0, 2, 3, 0, 0, 0};
  TipView v{};

  Scene() {
    owner[node[0]] = 0;
    owner[node[1]] = 1;
    vessel[0] = node[0];
    vessel[1] = node[1];
    v.g = g;
    v.window = v.block = whole_grid(g);
    v.p.max_tips = 4;
    v.p.anastomosis = 1;
    v.owner = owner.data();
    v.node = node.data();
    v.birth = birth.data();
    v.active = active.data();
    v.segments = segments.data();
    v.vessel = vessel.data();
    v.segment_capacity = 8;
    v.vessel_capacity = 8;
    v.counters = &counters;
  }
  // decide() notes the owner of a tip's target for resolve(); here the targets are set.
  std::int64_t resolve_tip(std::int32_t t) {
    std::vector<std::int32_t> met(target.size(), -1);
    for (std::size_t u = 0; u < target.size(); ++u)
      if (target[u] >= 0) met[u] = owner[static_cast<std::size_t>(target[u])];
    return resolve(v, t, target.data(), met.data(), site.data());
  }
  std::int32_t commit_tip(std::int32_t t, std::int64_t outcome, std::int64_t before) {
    return commit(v, start, 5, t, target.data(), site.data(), outcome, before);
  }
  NetworkCounters start = counters;
};

}  // namespace

TEST_CASE("two tips moving onto one free node: the first claims it, the second fuses") {
  Scene s;
  const std::int32_t q = s.g.index(2, 2, 2);
  s.target = {q, q};
  const auto o0 = s.resolve_tip(0);
  const auto o1 = s.resolve_tip(1);
  CHECK(o0 == Outcome::segment + Outcome::vessel);
  CHECK(o1 == Outcome::segment + Outcome::fuse);

  // Commit both at the offsets an exclusive scan gives, then add the totals.
  CHECK(s.commit_tip(0, o0, 0) == 2);
  CHECK(s.commit_tip(1, o1, o0) == 2);
  add_totals(s.counters, o0 + o1, 2, 0, 8, 8);
  CHECK(s.owner[q] == 0);
  CHECK(s.node[0] == q);
  CHECK(s.node[1] == q);
  CHECK(s.active[1] == 0);
  CHECK(s.segments[0] == s.g.index(1, 2, 2));
  CHECK(s.segments[1] == q);
  CHECK(s.segments[2] == s.g.index(3, 2, 2));
  CHECK(s.segments[3] == q);
  CHECK(s.vessel[2] == q);
  CHECK(s.counters.anastomoses == 1);
  CHECK(s.counters.active == 1);
  CHECK(s.counters.segments == 2);
  CHECK(s.counters.vessel_nodes == 3);
}

TEST_CASE("moving onto another sprout fuses; moving back along one's own trail does not") {
  Scene s;
  const std::int32_t trail = s.g.index(1, 3, 2);
  s.owner[trail] = 0;
  s.target = {trail, s.node[0]};
  CHECK(s.resolve_tip(0) == Outcome::segment);
  CHECK(s.resolve_tip(1) == Outcome::segment + Outcome::fuse);
}

TEST_CASE("a branch onto a node claimed earlier is cancelled; a later move there fuses") {
  Scene s;
  const std::int32_t p = s.g.index(2, 1, 2), r = s.g.index(3, 1, 2);
  s.site = {p, r};    // both tips try to branch
  s.target = {r, p};  // tip 0 moves onto tip 1's site, tip 1 onto tip 0's
  const auto o0 = s.resolve_tip(0);
  const auto o1 = s.resolve_tip(1);
  // Tip 0: its move claims the free node r, its branch (claimed next) survives.
  CHECK(o0 == Outcome::segment + Outcome::vessel + Outcome::branch);
  // Tip 1: its branch onto r is cancelled; its move onto p meets tip 0's new sprout.
  CHECK(o1 == Outcome::segment + Outcome::fuse);

  // Tip 0 writes its move, then its branch: the new tip takes the next slot.
  s.commit_tip(0, o0, 0);
  CHECK(s.node[2] == p);
  CHECK(s.birth[2] == 6);
  CHECK(s.birth[0] == 6);  // the parent's age restarts
  CHECK(s.active[2] == 1);
  CHECK(s.owner[p] == 2);
  CHECK(s.owner[r] == 0);
  CHECK(s.segments[2] == s.g.index(1, 2, 2));
  CHECK(s.segments[3] == p);
}

TEST_CASE("a branch onto the tip's own move target is cancelled") {
  Scene s;
  const std::int32_t q = s.g.index(1, 1, 2);
  s.site = {q, -1};
  s.target = {q, -1};
  CHECK(s.resolve_tip(0) == Outcome::segment + Outcome::vessel);
}

TEST_CASE("without anastomosis a tip moves on through another sprout") {
  Scene s;
  s.v.p.anastomosis = 0;
  const std::int32_t q = s.g.index(2, 2, 2);
  s.target = {q, q};
  CHECK(s.resolve_tip(0) == Outcome::segment + Outcome::vessel);
  CHECK(s.resolve_tip(1) == Outcome::segment);  // q is claimed by tip 0: no fusion
  s.target = {s.node[1], -1};
  CHECK(s.resolve_tip(0) == Outcome::segment);  // onto sprout 1's node: no fusion
}

namespace {

// One step as the phases define it, with nothing skipped: every tip slot decided, every
// tip resolved by scanning the claims of all tips before it and committed, every stored
// vessel node taking up (f <- f (1 - k gamma) + k beta, c <- c (1 - k eta)). Returns how
// many branch proposals found no free tip slot.
std::int32_t settle_every_tip(SimulationState& s) {
  const TipView v = tip_view(s, s.f.data(), s.c.data(), s.owner.data(), s.node.data(),
                             s.birth.data(), s.active.data(), s.segments.data(),
                             s.vessel.data(), &s.counters);
  const NetworkCounters start = s.counters;
  const auto slots = s.node.size();
  std::vector<std::int32_t> target(slots, -1), met(slots, -1), site(slots, -1);
  std::int32_t bad = 0;
  for (std::int32_t t = 0; t < start.tips; ++t)
    bad += decide(v, s.step, t, target.data(), met.data(), site.data());
  std::int32_t proposals = 0, withdrawn = 0;
  for (std::int32_t t = 0; t < start.tips; ++t)
    if (site[t] >= 0) {
      if (branch_fits(v, start.tips, proposals)) {
        ++proposals;
      } else {
        site[t] = -1;
        ++withdrawn;
      }
    }
  std::vector<std::int64_t> outcome(slots, 0);
  for (std::int32_t t = 0; t < start.tips; ++t)
    outcome[t] = resolve(v, t, target.data(), met.data(), site.data());
  std::int64_t before = 0;
  std::int32_t furthest = 0;
  for (std::int32_t t = 0; t < start.tips; ++t) {
    furthest = std::max(
        furthest, commit(v, start, s.step, t, target.data(), site.data(), outcome[t], before));
    before += outcome[t];
  }
  add_totals(s.counters, before, furthest, bad, v.segment_capacity, v.vessel_capacity);
  const std::int32_t stored = std::min(s.counters.vessel_nodes, v.vessel_capacity);
  for (std::int32_t q = 0; q < stored; ++q) {
    auto& f = s.f[static_cast<std::size_t>(s.vessel[q])];
    auto& c = s.c[static_cast<std::size_t>(s.vessel[q])];
    f = f * (1.0 - s.dt * s.p.gamma) + s.dt * s.p.beta;
    c = c * (1.0 - s.dt * s.p.eta);
  }
  ++s.step;
  return withdrawn;
}

}  // namespace

TEST_CASE("the CPU engine grows the network that settling every tip slot grows, step by step") {
  for (const bool anastomosis : {true, false}) {
    CAPTURE(anastomosis);
    auto settings = solvent::test::fast_model();
    settings["anastomosis"] = anastomosis;
    const auto m = solvent::testkit::make_model("angiogenesis-3d", settings);
    const auto& p = *solvent::family<solvent::angiogenesis_3d::ParametersFamily>(*m);
    SimulationState expected = initial_state(p, 0.004, 9, 20000);
    auto engine = make_cpu_engine();
    engine->load(expected);
    SimulationState got;
    std::int32_t withdrawn = 0;
    for (int step = 1; step <= 300; ++step) {
      CAPTURE(step);
      withdrawn += settle_every_tip(expected);
      engine->step();
      engine->store(got);
      REQUIRE(std::memcmp(&got.counters, &expected.counters, sizeof got.counters) == 0);
      REQUIRE(got.node == expected.node);
      REQUIRE(got.active == expected.active);
      REQUIRE(got.birth == expected.birth);
      REQUIRE(got.segments == expected.segments);
      REQUIRE(got.vessel == expected.vessel);
      REQUIRE(got.owner == expected.owner);
      REQUIRE(got.f == expected.f);
      REQUIRE(got.c == expected.c);
    }
    // The run proves something: tips branched, filled every slot (proposals beyond it
    // withdrawn), and (with anastomosis) fused.
    CHECK(expected.counters.branches > 0);
    CHECK(expected.counters.tips == p.max_tips);
    CHECK((expected.counters.anastomoses > 0) == anastomosis);
    CHECK(withdrawn > 0);
  }
}
