#include <solvent_helmholtz/gmsh_reader.hpp>

#include <solvent/errors.hpp>
#include <solvent/io/input_file.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <span>
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
  Words(std::string_view text, std::string name) : name_(std::move(name)), text_(text) {}

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
      if (close == std::string::npos ||
          std::find(text_.begin() + pos_, text_.begin() + close, '\n') != text_.begin() + close)
        fail("unterminated quoted name");
      pos_ = close + 1;
      return text_.substr(start + 1, close - start - 1);
    }
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return text_.substr(start, pos_ - start);
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

  // A count the file declares, before anything is allocated for it: not negative, and no
  // more items than the rest of the file can hold, each at least `words_each` words of one
  // character and a separator.
  std::int64_t count(const char* section, const char* items, int words_each) {
    const auto n = integer<std::int64_t>(("the number of " + std::string(items)).c_str());
    if (n < 0)
      fail(std::string(section) + " declares " + std::to_string(n) + " " + items +
           "; a count cannot be negative");
    const std::size_t left = text_.size() - pos_;
    if (static_cast<std::uint64_t>(n) > left / (2 * static_cast<std::size_t>(words_each)))
      fail(std::string(section) + " declares " + std::to_string(n) + " " + items +
           ", more than the " + std::to_string(left) + " bytes after it can hold (" +
           std::to_string(words_each) + " numbers each)");
    return n;
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

  // A node's position; NaN or infinity would reach the assembly as a NaN matrix.
  Point point(std::int64_t tag) {
    Point p;
    for (int a = 0; a < 3; ++a) {
      p[a] = real("a coordinate");
      const std::string which =
          std::string("coordinate ") + "xyz"[a] + " of node " + std::to_string(tag);
      if (std::isnan(p[a])) fail(which + " is NaN");
      if (std::isinf(p[a])) fail(which + " is infinite");
    }
    return p;
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

  [[noreturn]] void fail(const std::string& what) const { fail_at(line_, what); }
  [[noreturn]] void fail_at(std::size_t line, const std::string& what) const {
    throw InputError(name_ + ":" + std::to_string(line) + ": " + what);
  }

  std::size_t line() const { return line_; }

 private:
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      if (text_[pos_] == '\n') ++line_;
      ++pos_;
    }
  }

  std::string name_;
  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
};

// What both file versions boil down to before the nodes are renumbered.
struct RawTriangle {
  std::array<std::int64_t, 3> nodes;
  std::size_t line;  // where the file lists it, for the check after all elements are read
};

struct RawTet {
  std::array<std::int64_t, 4> nodes;
  std::size_t line;  // where the file lists it, for the volume check once the nodes are known
};

struct RawMesh {
  std::unordered_map<std::int64_t, Point> nodes;
  std::vector<RawTet> tets;
  std::map<int, std::vector<RawTriangle>> triangles_by_physical;
  std::map<int, std::string> physical_names;  // surfaces only
  std::size_t elements_line = 0;
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

void add_node(Words& w, RawMesh& raw, std::int64_t tag, const Point& p) {
  if (!raw.nodes.emplace(tag, p).second)
    w.fail("node " + std::to_string(tag) + " appears twice in $Nodes");
}

// The element's nodes, refusing a tetrahedron that names a node twice: it has no volume,
// and the P1 assembly would divide by it.
void add_element(Words& w, RawMesh& raw, int type, const std::array<std::int64_t, 8>& v,
                 std::span<const int> physicals) {
  if (type == tetrahedron_type) {
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        if (v[a] == v[b]) w.fail("a tetrahedron names node " + std::to_string(v[a]) + " twice");
    raw.tets.push_back({{v[0], v[1], v[2], v[3]}, w.line()});
  }
  if (type == triangle_type)
    for (int p : physicals) raw.triangles_by_physical[p].push_back({{v[0], v[1], v[2]}, w.line()});
}

void read_physical_names(Words& w, RawMesh& raw) {
  const auto count = w.count("$PhysicalNames", "physical names", 3);
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
  for (auto& c : count) c = w.count("$Entities", "entities", 5);
  for (int dim = 0; dim < 4; ++dim) {
    for (std::int64_t e = 0; e < count[dim]; ++e) {
      const int tag = w.integer<int>("an entity tag");
      for (int c = 0; c < (dim == 0 ? 3 : 6); ++c) w.real("a coordinate");
      const auto physicals = w.count("an entity", "physical tags", 1);
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
  const auto blocks = w.count("$Nodes", "node blocks", 4);
  const auto total = w.count("$Nodes", "nodes", 4);
  w.integer<std::int64_t>("the smallest node tag");
  w.integer<std::int64_t>("the largest node tag");
  raw.nodes.reserve(static_cast<std::size_t>(total));
  for (std::int64_t b = 0; b < blocks; ++b) {
    const int dim = w.integer<int>("an entity dimension");
    w.integer<int>("an entity tag");
    // Nodes saved with parametric coordinates carry one per dimension of their entity.
    const int parametric = w.integer<int>("the parametric flag") ? dim : 0;
    const auto n = w.count("a node block", "nodes", 4);
    std::vector<std::int64_t> tags(static_cast<std::size_t>(n));
    for (auto& t : tags) t = w.integer<std::int64_t>("a node tag");
    for (auto t : tags) {
      const Point p = w.point(t);
      for (int u = 0; u < parametric; ++u) w.real("a parametric coordinate");
      add_node(w, raw, t, p);
    }
  }
  if (static_cast<std::int64_t>(raw.nodes.size()) != total)
    w.fail("the $Nodes header declares " + std::to_string(total) + " nodes, the blocks hold " +
           std::to_string(raw.nodes.size()));
  w.expect("$EndNodes");
}

void read_v4_elements(Words& w, RawMesh& raw,
                      const std::map<int, std::vector<int>>& surface_physicals) {
  const auto blocks = w.count("$Elements", "element blocks", 4);
  w.integer<std::int64_t>("the number of elements");
  w.integer<std::int64_t>("the smallest element tag");
  w.integer<std::int64_t>("the largest element tag");
  for (std::int64_t b = 0; b < blocks; ++b) {
    const int dim = w.integer<int>("an entity dimension");
    const int entity = w.integer<int>("an entity tag");
    const int type = w.integer<int>("an element type");
    const int per = nodes_per_element(w, type);
    const auto n = w.count("an element block", "elements", 1 + per);
    std::span<const int> physicals;
    if (dim == 2) {
      auto it = surface_physicals.find(entity);
      if (it == surface_physicals.end())
        w.fail("element block of unknown surface " + std::to_string(entity));
      physicals = it->second;
    }
    for (std::int64_t e = 0; e < n; ++e) {
      w.integer<std::int64_t>("an element tag");
      std::array<std::int64_t, 8> v{};
      for (int m = 0; m < per; ++m) v[m] = node_tag(w, raw);
      add_element(w, raw, type, v, physicals);
    }
  }
  w.expect("$EndElements");
}

// MSH 2.2: one list of nodes, one of elements whose first tag is the physical group.
void read_v2_nodes(Words& w, RawMesh& raw) {
  const auto n = w.count("$Nodes", "nodes", 4);
  raw.nodes.reserve(static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; ++k) {
    const auto tag = w.integer<std::int64_t>("a node tag");
    add_node(w, raw, tag, w.point(tag));
  }
  w.expect("$EndNodes");
}

void read_v2_elements(Words& w, RawMesh& raw) {
  const auto n = w.count("$Elements", "elements", 4);
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
    add_element(w, raw, type, v,
                physical != 0 ? std::span<const int>(&physical, 1) : std::span<const int>());
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
      raw.elements_line = w.line();
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

// Whether a tetrahedron's volume is zero to rounding: 6 V = e1 . (e2 x e3) against the
// product of its edge lengths, so the test is the same for a mesh in millimetres or in
// kilometres. Such an element would make the P1 assembly divide by zero.
bool flat(const RawMesh& raw, const RawTet& t) {
  const Point& p0 = raw.nodes.at(t.nodes[0]);
  std::array<Point, 3> e;
  double scale = 1.0;
  for (int k = 0; k < 3; ++k) {
    e[k] = minus(raw.nodes.at(t.nodes[k + 1]), p0);
    scale *= std::sqrt(dot(e[k], e[k]));
  }
  return !(std::abs(dot(e[0], cross(e[1], e[2]))) > 1e-12 * scale);
}

}  // namespace

TetMesh parse_gmsh(std::string_view text, const std::string& name) {
  Words w(text, name);
  int version_major = 0;
  RawMesh raw = read_raw(w, version_major);
  if (raw.tets.empty())
    w.fail_at(raw.elements_line,
              "the mesh has no linear tetrahedra (type 4); mesh it with gmsh -3");
  if (raw.nodes.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    w.fail_at(raw.elements_line, "the mesh has " + std::to_string(raw.nodes.size()) +
                                     " nodes, more than 32-bit node numbers can address");

  TetMesh mesh;
  std::unordered_map<std::int64_t, std::int32_t> index;
  index.reserve(raw.nodes.size());
  auto renumber = [&](std::int64_t tag) -> std::int32_t {
    auto [it, fresh] = index.try_emplace(tag, static_cast<std::int32_t>(mesh.nodes.size()));
    if (fresh) mesh.nodes.push_back(raw.nodes.at(tag));
    return it->second;
  };
  mesh.tets.reserve(raw.tets.size());
  for (const auto& t : raw.tets) {
    if (flat(raw, t))
      w.fail_at(t.line, "the tetrahedron of nodes " + std::to_string(t.nodes[0]) + ", " +
                            std::to_string(t.nodes[1]) + ", " + std::to_string(t.nodes[2]) + ", " +
                            std::to_string(t.nodes[3]) +
                            " has no volume (its nodes lie in one plane)");
    const auto& n = t.nodes;
    mesh.tets.push_back({renumber(n[0]), renumber(n[1]), renumber(n[2]), renumber(n[3])});
  }
  for (const auto& [physical, triangles] : raw.triangles_by_physical) {
    BoundaryGroup g;
    auto name_of = raw.physical_names.find(physical);
    g.name = name_of != raw.physical_names.end() ? name_of->second : std::to_string(physical);
    for (const auto& t : triangles) {
      std::array<std::int32_t, 3> tri;
      for (int a = 0; a < 3; ++a) {
        auto it = index.find(t.nodes[a]);
        if (it == index.end())
          w.fail_at(t.line, "a triangle of physical surface '" + g.name + "' has node " +
                                std::to_string(t.nodes[a]) + ", which no tetrahedron uses");
        tri[a] = it->second;
      }
      g.triangles.push_back(tri);
    }
    mesh.groups.push_back(std::move(g));
  }
  return mesh;
}

TetMesh read_gmsh(const std::filesystem::path& path) {
  return parse_gmsh(read_input_file(path), path.string());
}

}  // namespace solvent::helmholtz
