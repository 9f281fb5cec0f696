#include <solvent/grid/exchange_cost.hpp>

#include <algorithm>
#include <chrono>
#include <limits>

namespace solvent {

LinkFit measure_links(const Communicator& comm, std::span<const int> peers, std::size_t values) {
  values = std::max<std::size_t>(values, 1);
  std::vector<int> to;
  for (const int p : peers)
    if (p >= 0) to.push_back(p);
  std::vector<double> out(values, 0.0);
  std::vector<double> in(to.size() * values, 0.0);
  auto seconds = [&](std::size_t count) {
    std::vector<Communicator::Transfer> transfers;
    for (std::size_t q = 0; q < to.size(); ++q)
      // Every transfer receives into a part of `in` of its own.
      transfers.push_back({to[q], std::as_bytes(std::span<const double>(out.data(), count)),
                           std::as_writable_bytes(std::span<double>(in.data() + q * values, count))});
    double best = 0.0;
    for (int repeat = 0; repeat < 5; ++repeat) {
      comm.barrier();
      const auto start = std::chrono::steady_clock::now();
      if (!transfers.empty()) comm.exchange(transfers);
      const double t =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      best = repeat == 0 ? t : std::min(best, t);
    }
    return best;
  };
  const double small = seconds(1), large = seconds(values);
  double fit[2] = {small, values > 1 ? std::max(0.0, large - small) /
                                           (double(values - 1) * sizeof(double))
                                     : 0.0};
  comm.max(std::span<double>(fit, 2));
  return {fit[0], fit[1]};
}

namespace {

// What rank r's exchanges cost an iteration on its faces in `blocks`.
double exchange_seconds(const GridBlocks& blocks, int r, const LinkFit& link,
                        const IterationExchanges& exchanges) {
  const auto e = blocks.extent(r);
  const auto n = blocks.neighbours(r);
  double halo = 0.0;
  for (int face = 0; face < 6; ++face) {
    if (n[static_cast<std::size_t>(face)] < 0) continue;
    const int a = face / 2;
    const double values = double(e[(a + 1) % 3]) * double(e[(a + 2) % 3]);
    halo += link.seconds(values * sizeof(double));
  }
  return exchanges.halos * halo + exchanges.reductions * link.latency_s;
}

}  // namespace

std::vector<EmptiedRank> weigh_by_speed(GridBlocks& blocks, std::span<const double> speeds,
                                        const LinkFit& link, const IterationExchanges& exchanges) {
  const int axis = blocks.split[2] >= blocks.split[1] ? 2 : 1;
  const auto slabs = static_cast<std::size_t>(blocks.split[axis]);
  const double per_slab = double(blocks.ranks()) / double(slabs);
  const double nodes = double(blocks.nodes[0]) * blocks.nodes[1] * blocks.nodes[2];
  std::vector<double> weights(slabs, 0.0);
  std::vector<int> slowest(slabs, 0);
  for (int r = 0; r < blocks.ranks(); ++r) {
    const auto slab = static_cast<std::size_t>(blocks.coordinates(r)[axis]);
    const double s = speeds[static_cast<std::size_t>(r)];
    if (weights[slab] == 0.0 || s < weights[slab]) {
      weights[slab] = s;
      slowest[slab] = r;
    }
  }
  std::vector<EmptiedRank> emptied;
  for (;;) {
    blocks.weigh(axis, weights);
    double total = 0.0;
    std::size_t left = 0;
    for (const double w : weights) {
      total += w;
      left += w > 0.0;
    }
    if (left < 2) break;
    // The slab whose share buys least against its exchanges, if any buys less than they cost.
    std::size_t worst = slabs;
    double worst_ratio = 1.0;
    std::vector<double> cost(slabs, 0.0);
    for (int r = 0; r < blocks.ranks(); ++r) {
      auto& c = cost[static_cast<std::size_t>(blocks.coordinates(r)[axis])];
      c = std::max(c, exchange_seconds(blocks, r, link, exchanges));
    }
    for (std::size_t s = 0; s < slabs; ++s) {
      if (weights[s] == 0.0) continue;
      const double others = nodes * (weights[s] / total) / (per_slab * (total - weights[s]));
      const double ratio = cost[s] > 0.0 ? others / cost[s] : std::numeric_limits<double>::infinity();
      if (ratio < worst_ratio) {
        worst = s;
        worst_ratio = ratio;
      }
    }
    if (worst == slabs) break;
    const double share = weights[worst] / total;
    const double others = nodes * share / (per_slab * (total - weights[worst]));
    for (int r = 0; r < blocks.ranks(); ++r)
      if (static_cast<std::size_t>(blocks.coordinates(r)[axis]) == worst)
        emptied.push_back({r, speeds[static_cast<std::size_t>(r)], slowest[worst], axis,
                           share / per_slab, others, exchange_seconds(blocks, r, link, exchanges)});
    weights[worst] = 0.0;
  }
  std::sort(emptied.begin(), emptied.end(),
            [](const EmptiedRank& x, const EmptiedRank& y) { return x.rank < y.rank; });
  return emptied;
}

}  // namespace solvent
