#include <solvent_helmholtz/mesh_ordering.hpp>

#include <algorithm>
#include <cstdlib>

namespace solvent::helmholtz {
namespace {

// Node adjacency through the tetrahedra, as sorted neighbour lists.
struct Graph {
  std::vector<std::size_t> start;
  std::vector<std::int32_t> next;
  std::size_t degree(std::int32_t v) const { return start[v + 1] - start[v]; }
};

Graph node_graph(const TetMesh& mesh) {
  const std::size_t n = mesh.nodes.size();
  std::vector<std::vector<std::int32_t>> lists(n);
  for (const auto& t : mesh.tets)
    for (auto a : t)
      for (auto b : t)
        if (a != b) lists[a].push_back(b);
  Graph g;
  g.start.assign(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) {
    auto& l = lists[v];
    std::sort(l.begin(), l.end());
    l.erase(std::unique(l.begin(), l.end()), l.end());
    g.start[v + 1] = g.start[v] + l.size();
  }
  g.next.reserve(g.start[n]);
  for (auto& l : lists) g.next.insert(g.next.end(), l.begin(), l.end());
  return g;
}

// Breadth-first levels from `root`, neighbours taken in increasing degree (Cuthill-McKee);
// returns the visiting order and leaves the last node of the deepest level in `far`.
std::vector<std::int32_t> cuthill_mckee(const Graph& g, std::int32_t root, std::vector<char>& seen,
                                        std::int32_t& far) {
  std::vector<std::int32_t> order{root}, level_nodes;
  seen[root] = 1;
  for (std::size_t head = 0; head < order.size(); ++head) {
    const auto v = order[head];
    level_nodes.clear();
    for (auto p = g.start[v]; p < g.start[v + 1]; ++p)
      if (!seen[g.next[p]]) {
        seen[g.next[p]] = 1;
        level_nodes.push_back(g.next[p]);
      }
    std::sort(level_nodes.begin(), level_nodes.end(),
              [&](std::int32_t a, std::int32_t b) { return g.degree(a) < g.degree(b); });
    order.insert(order.end(), level_nodes.begin(), level_nodes.end());
  }
  far = order.back();
  return order;
}

}  // namespace

void renumber_reverse_cuthill_mckee(TetMesh& mesh) {
  const std::size_t n = mesh.nodes.size();
  const Graph g = node_graph(mesh);
  std::vector<char> placed(n, 0);
  std::vector<std::int32_t> order;
  order.reserve(n);
  for (std::size_t s = 0; s < n; ++s) {
    if (placed[s]) continue;
    // A far node of the component (one sweep from an arbitrary start) is a good root.
    std::vector<char> scratch = placed;
    std::int32_t root = static_cast<std::int32_t>(s);
    cuthill_mckee(g, root, scratch, root);
    auto component = cuthill_mckee(g, root, placed, root);
    order.insert(order.end(), component.begin(), component.end());
  }
  std::reverse(order.begin(), order.end());
  std::vector<std::int32_t> new_index(n);
  for (std::size_t i = 0; i < n; ++i) new_index[order[i]] = static_cast<std::int32_t>(i);
  std::vector<Point> nodes(n);
  for (std::size_t i = 0; i < n; ++i) nodes[new_index[i]] = mesh.nodes[i];
  mesh.nodes = std::move(nodes);
  for (auto& t : mesh.tets)
    for (auto& v : t) v = new_index[v];
  for (auto& group : mesh.groups)
    for (auto& t : group.triangles)
      for (auto& v : t) v = new_index[v];
}

std::size_t bandwidth(const TetMesh& mesh) {
  std::size_t band = 0;
  for (const auto& t : mesh.tets)
    for (auto a : t)
      for (auto b : t) band = std::max<std::size_t>(band, std::abs(a - b));
  return band;
}

}  // namespace solvent::helmholtz
