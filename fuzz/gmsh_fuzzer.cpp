// The gmsh reader on arbitrary bytes: it may refuse them only with InputError, and a mesh
// it accepts has tetrahedra whose node numbers are in range and distinct.
#include <solvent/errors.hpp>
#include <solvent_helmholtz/gmsh_reader.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto mesh = solvent::helmholtz::parse_gmsh(text, "input.msh");
    const auto n = static_cast<std::int32_t>(mesh.nodes.size());
    if (mesh.tets.empty()) std::abort();
    for (const auto& t : mesh.tets)
      for (int a = 0; a < 4; ++a) {
        if (t[a] < 0 || t[a] >= n) std::abort();
        for (int b = a + 1; b < 4; ++b)
          if (t[a] == t[b]) std::abort();
      }
    for (const auto& x : mesh.nodes)
      for (double c : x)
        if (!std::isfinite(c)) std::abort();
    for (const auto& g : mesh.groups)
      for (const auto& tri : g.triangles)
        for (auto v : tri)
          if (v < 0 || v >= n) std::abort();
  } catch (const solvent::InputError&) {
  }
  return 0;
}
