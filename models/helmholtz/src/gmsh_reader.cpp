#include <solvent_helmholtz/gmsh_reader.hpp>

#include <solvent/errors.hpp>

#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>
#include <unordered_map>

namespace solvent::helmholtz {
namespace {

constexpr int triangle_type = 2;
constexpr int tetrahedron_type = 4;
constexpr int quadratic_triangle_type = 9;
constexpr int quadratic_tetrahedron_type = 11;

// Whitespace-separated words of the file, each with the line it stands on.
class Words {
 public:
  explicit Words(const std::filesystem::path& path) : name_(path.string()) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(name_ + ": cannot open for reading");
    std::ostringstream s;
    s << in.rdbuf();
    text_ = std::move(s).str();
  }

  bool at_end() {
    skip_space();
    return pos_ >= text_.size();
  }

  std::string_view next(const char* what) {
    skip_space();
    if (pos_ >= text_.size()) fail("the file ends where " + std::string(what) + " was expected");
    const std::size_t start = pos_;
    if (text_[pos_] == '"') {
      const std::size_t close = text_.find('"', pos_ + 1);
      if (close == std::string::npos || text_.find('\n', pos_) < close)
        fail("unterminated quoted name");
      pos_ = close + 1;
      return std::string_view(text_).substr(start + 1, close - start - 1);
    }
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return std::string_view(text_).substr(start, pos_ - start);
  }

  template <class I>
  I integer(const char* what) {
    auto w = next(what);
    I v{};
    auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || end != w.data() + w.size())
      fail("expected " + std::string(what) + ", found '" + std::string(w) + "'");
    return v;
  }

  double real(const char* what) {
    auto w = next(what);
    if (!w.empty() && w.front() == '+') w.remove_prefix(1);
    double v = 0;
    auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || end != w.data() + w.size() || w.empty())
      fail("expected " + std::string(what) + ", found '" + std::string(w) + "'");
    return v;
  }

  void expect(std::string_view word) {
    auto w = next(std::string(word).c_str());
    if (w != word) fail("expected " + std::string(word) + ", found '" + std::string(w) + "'");
  }

  // Skips the rest of a section this reader has no use for.
  void skip_section(std::string_view section) {
    const std::string end = "$End" + std::string(section.substr(1));
    while (next(end.c_str()) != end) {
    }
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(name_ + ":" + std::to_string(line_) + ": " + what);
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      if (text_[pos_] == '\n') ++line_;
      ++pos_;
    }
  }

  std::string name_;
  std::string text_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
};

// What both file versions boil down to before the nodes are renumbered.
struct RawMesh {
  std::unordered_map<std::int64_t, Point> nodes;
  std::vector<std::array<std::int64_t, 4>> tets;
  std::map<int, std::vector<std::array<std::int64_t, 3>>> triangles_by_physical;
  std::map<int, std::string> physical_names;  // surfaces only
};

// Nodes per element for the types a linear mesh may hold besides its tetrahedra.
int nodes_per_element(Words& w, int type) {
  if (type == quadratic_tetrahedron_type || type == quadratic_triangle_type)
    w.fail("second-order elements (type " + std::to_string(type) +
           ") are not supported; mesh with gmsh -order 1");
  static const std::map<int, int> nodes{{1, 2}, {2, 3}, {3, 4}, {4, 4},
                                        {5, 8}, {6, 6}, {7, 5}, {15, 1}};
  auto it = nodes.find(type);
  if (it == nodes.end()) w.fail("unsupported element type " + std::to_string(type));
  return it->second;
}

std::int64_t node_tag(Words& w, const RawMesh& raw) {
  const auto tag = w.integer<std::int64_t>("a node tag");
  if (!raw.nodes.count(tag)) w.fail("node " + std::to_string(tag) + " is not in $Nodes");
  return tag;
}

void read_physical_names(Words& w, RawMesh& raw) {
  const auto count = w.integer<std::int64_t>("the number of physical names");
  for (std::int64_t p = 0; p < count; ++p) {
    const int dim = w.integer<int>("a dimension");
    const int tag = w.integer<int>("a physical tag");
    const std::string name(w.next("a quoted name"));
    if (dim == 2) raw.physical_names[tag] = name;
  }
  w.expect("$EndPhysicalNames");
}

// MSH 4.1: entities carry the physical tags; node and element blocks refer to entities.
void read_v4_entities(Words& w, std::map<int, std::vector<int>>& surface_physicals) {
  std::array<std::int64_t, 4> count;
  for (auto& c : count) c = w.integer<std::int64_t>("an entity count");
  for (int dim = 0; dim < 4; ++dim) {
    for (std::int64_t e = 0; e < count[dim]; ++e) {
      const int tag = w.integer<int>("an entity tag");
      for (int c = 0; c < (dim == 0 ? 3 : 6); ++c) w.real("a coordinate");
      const auto physicals = w.integer<std::int64_t>("the number of physical tags");
      std::vector<int> tags;
      for (std::int64_t p = 0; p < physicals; ++p) tags.push_back(w.integer<int>("a physical tag"));
      if (dim == 2) surface_physicals[tag] = std::move(tags);
      if (dim > 0) {
        const auto bounding = w.integer<std::int64_t>("the number of bounding entities");
        for (std::int64_t b = 0; b < bounding; ++b) w.integer<int>("a bounding entity tag");
      }
    }
  }
  w.expect("$EndEntities");
}

void read_v4_nodes(Words& w, RawMesh& raw) {
  const auto blocks = w.integer<std::int64_t>("the number of node blocks");
  const auto total = w.integer<std::int64_t>("the number of nodes");
  w.integer<std::int64_t>("the smallest node tag");
  w.integer<std::int64_t>("the largest node tag");
  raw.nodes.reserve(static_cast<std::size_t>(total));
  for (std::int64_t b = 0; b < blocks; ++b) {
    const int dim = w.integer<int>("an entity dimension");
    w.integer<int>("an entity tag");
    // Nodes saved with parametric coordinates carry one per dimension of their entity.
    const int parametric = w.integer<int>("the parametric flag") ? dim : 0;
    const auto n = w.integer<std::int64_t>("the number of nodes in the block");
    std::vector<std::int64_t> tags(static_cast<std::size_t>(n));
    for (auto& t : tags) t = w.integer<std::int64_t>("a node tag");
    for (auto t : tags) {
      Point p{w.real("a coordinate"), w.real("a coordinate"), w.real("a coordinate")};
      for (int u = 0; u < parametric; ++u) w.real("a parametric coordinate");
      raw.nodes[t] = p;
    }
  }
  if (static_cast<std::int64_t>(raw.nodes.size()) != total)
    w.fail("the $Nodes header declares " + std::to_string(total) + " nodes, the blocks hold " +
           std::to_string(raw.nodes.size()));
  w.expect("$EndNodes");
}

void read_v4_elements(Words& w, RawMesh& raw,
                      const std::map<int, std::vector<int>>& surface_physicals) {
  const auto blocks = w.integer<std::int64_t>("the number of element blocks");
  w.integer<std::int64_t>("the number of elements");
  w.integer<std::int64_t>("the smallest element tag");
  w.integer<std::int64_t>("the largest element tag");
  for (std::int64_t b = 0; b < blocks; ++b) {
    const int dim = w.integer<int>("an entity dimension");
    const int entity = w.integer<int>("an entity tag");
    const int type = w.integer<int>("an element type");
    const auto n = w.integer<std::int64_t>("the number of elements in the block");
    const int per = nodes_per_element(w, type);
    const std::vector<int>* physicals = nullptr;
    if (dim == 2) {
      auto it = surface_physicals.find(entity);
      if (it == surface_physicals.end())
        w.fail("element block of unknown surface " + std::to_string(entity));
      physicals = &it->second;
    }
    for (std::int64_t e = 0; e < n; ++e) {
      w.integer<std::int64_t>("an element tag");
      std::array<std::int64_t, 8> v{};
      for (int m = 0; m < per; ++m) v[m] = node_tag(w, raw);
      if (type == tetrahedron_type) raw.tets.push_back({v[0], v[1], v[2], v[3]});
      if (type == triangle_type && physicals)
        for (int p : *physicals) raw.triangles_by_physical[p].push_back({v[0], v[1], v[2]});
    }
  }
  w.expect("$EndElements");
}

// MSH 2.2: one list of nodes, one of elements whose first tag is the physical group.
void read_v2_nodes(Words& w, RawMesh& raw) {
  const auto n = w.integer<std::int64_t>("the number of nodes");
  raw.nodes.reserve(static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; ++k) {
    const auto tag = w.integer<std::int64_t>("a node tag");
    raw.nodes[tag] = Point{w.real("a coordinate"), w.real("a coordinate"), w.real("a coordinate")};
  }
  w.expect("$EndNodes");
}

void read_v2_elements(Words& w, RawMesh& raw) {
  const auto n = w.integer<std::int64_t>("the number of elements");
  for (std::int64_t e = 0; e < n; ++e) {
    w.integer<std::int64_t>("an element tag");
    const int type = w.integer<int>("an element type");
    const int per = nodes_per_element(w, type);
    const int ntags = w.integer<int>("the number of tags");
    int physical = 0;
    for (int t = 0; t < ntags; ++t) {
      const int tag = w.integer<int>("a tag");
      if (t == 0) physical = tag;
    }
    std::array<std::int64_t, 8> v{};
    for (int m = 0; m < per; ++m) v[m] = node_tag(w, raw);
    if (type == tetrahedron_type) raw.tets.push_back({v[0], v[1], v[2], v[3]});
    if (type == triangle_type && physical != 0)
      raw.triangles_by_physical[physical].push_back({v[0], v[1], v[2]});
  }
  w.expect("$EndElements");
}

RawMesh read_raw(Words& w, int& version_major) {
  RawMesh raw;
  std::map<int, std::vector<int>> surface_physicals;
  bool have_format = false, have_nodes = false, have_elements = false;
  while (!w.at_end()) {
    const std::string section(w.next("a section"));
    if (section == "$MeshFormat") {
      const std::string version(w.next("the format version"));
      const int binary = w.integer<int>("the file type");
      w.integer<int>("the data size");
      if (version == "4.1")
        version_major = 4;
      else if (version == "2.2")
        version_major = 2;
      else
        w.fail("MSH version " + version + " is not supported (4.1 or 2.2 ASCII)");
      if (binary != 0)
        w.fail("binary MSH files are not supported; save as ASCII (gmsh -format msh41)");
      w.expect("$EndMeshFormat");
      have_format = true;
    } else if (!have_format) {
      w.fail("expected $MeshFormat, found '" + section + "'");
    } else if (section == "$PhysicalNames") {
      read_physical_names(w, raw);
    } else if (section == "$Entities" && version_major == 4) {
      read_v4_entities(w, surface_physicals);
    } else if (section == "$Nodes") {
      version_major == 4 ? read_v4_nodes(w, raw) : read_v2_nodes(w, raw);
      have_nodes = true;
    } else if (section == "$Elements") {
      if (!have_nodes) w.fail("$Elements before $Nodes");
      version_major == 4 ? read_v4_elements(w, raw, surface_physicals) : read_v2_elements(w, raw);
      have_elements = true;
    } else if (section.size() > 1 && section[0] == '$' && section.rfind("$End", 0) != 0) {
      w.skip_section(section);
    } else {
      w.fail("expected a section such as $Nodes, found '" + section + "'");
    }
  }
  if (!have_format) w.fail("empty file; expected $MeshFormat");
  if (!have_elements) w.fail("the file has no $Elements section");
  return raw;
}

}  // namespace

TetMesh read_gmsh(const std::filesystem::path& path) {
  Words w(path);
  int version_major = 0;
  RawMesh raw = read_raw(w, version_major);
  if (raw.tets.empty())
    throw InputError(path.string() +
                     ": the mesh has no linear tetrahedra (type 4); mesh it with gmsh -3");

  TetMesh mesh;
  std::unordered_map<std::int64_t, std::int32_t> index;
  index.reserve(raw.nodes.size());
  auto renumber = [&](std::int64_t tag) -> std::int32_t {
    auto [it, fresh] = index.try_emplace(tag, static_cast<std::int32_t>(mesh.nodes.size()));
    if (fresh) mesh.nodes.push_back(raw.nodes.at(tag));
    return it->second;
  };
  mesh.tets.reserve(raw.tets.size());
  for (const auto& t : raw.tets)
    mesh.tets.push_back({renumber(t[0]), renumber(t[1]), renumber(t[2]), renumber(t[3])});
  for (const auto& [physical, triangles] : raw.triangles_by_physical) {
    BoundaryGroup g;
    auto name = raw.physical_names.find(physical);
    g.name = name != raw.physical_names.end() ? name->second : std::to_string(physical);
    for (const auto& t : triangles) {
      auto a = index.find(t[0]), b = index.find(t[1]), c = index.find(t[2]);
      if (a == index.end() || b == index.end() || c == index.end())
        throw InputError(path.string() + ": a triangle of physical surface '" + g.name +
                         "' has a node that no tetrahedron uses");
      g.triangles.push_back({a->second, b->second, c->second});
    }
    mesh.groups.push_back(std::move(g));
  }
  return mesh;
}

}  // namespace solvent::helmholtz
