// The order-independent resolution of one step's tip claims (anastomosis, cancelled
// branches) and the commit of segments, vessel nodes and new tips.
#include <solvent_stencil3d/tip_phases.hpp>

#include <doctest/doctest.h>

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
