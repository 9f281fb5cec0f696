#include "src/vtk_output.hpp"

#include <solvent_family_angiogenesis_3d/grid.hpp>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace solvent::stencil3d {
namespace {

struct AppendedArray {
  const char* type;
  const char* name;
  const void* data;
  std::uint64_t bytes;
};

}  // namespace

std::string fields_vti(const SimulationState& s) {
  const auto g = solvent::angiogenesis_3d::grid_of(s.p);
  // n is the cell occupancy of the hybrid model: 1 on the vessel nodes (tips included).
  std::vector<double> n(s.owner.size());
  std::transform(s.owner.begin(), s.owner.end(), n.begin(),
                 [](std::int32_t o) { return o >= 0 ? 1.0 : 0.0; });
  const std::vector<AppendedArray> arrays = {
      {"Float64", "n", n.data(), n.size() * sizeof(double)},
      {"Float64", "f", s.f.data(), s.f.size() * sizeof(double)},
      {"Float64", "c", s.c.data(), s.c.size() * sizeof(double)},
      {"Int32", "sprout", s.owner.data(), s.owner.size() * sizeof(std::int32_t)}};
  std::ostringstream head;
  head.precision(17);
  const std::string extent = "0 " + std::to_string(g.nx - 1) + " 0 " + std::to_string(g.ny - 1) +
                             " 0 " + std::to_string(g.nz - 1);
  head << "<?xml version=\"1.0\"?>\n"
       << "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" "
          "header_type=\"UInt64\">\n"
       << "  <ImageData WholeExtent=\"" << extent << "\" Origin=\"0 0 0\" Spacing=\"" << s.p.h
       << ' ' << s.p.h << ' ' << s.p.h << "\">\n"
       << "    <FieldData>\n      <DataArray type=\"Float64\" Name=\"TIME\" "
          "NumberOfTuples=\"1\" format=\"ascii\">"
       << static_cast<double>(s.step) * s.dt << "</DataArray>\n    </FieldData>\n"
       << "    <Piece Extent=\"" << extent << "\">\n      <PointData Scalars=\"n\">\n";
  std::uint64_t offset = 0;
  for (const auto& a : arrays) {
    head << "        <DataArray type=\"" << a.type << "\" Name=\"" << a.name
         << "\" format=\"appended\" offset=\"" << offset << "\"/>\n";
    offset += sizeof(std::uint64_t) + a.bytes;
  }
  head << "      </PointData>\n    </Piece>\n  </ImageData>\n"
       << "  <AppendedData encoding=\"raw\">\n   _";
  std::string out = head.str();
  out.reserve(out.size() + offset + 64);
  for (const auto& a : arrays) {
    out.append(reinterpret_cast<const char*>(&a.bytes), sizeof a.bytes);
    out.append(static_cast<const char*>(a.data), a.bytes);
  }
  out += "\n  </AppendedData>\n</VTKFile>\n";
  return out;
}

std::string network_vtp(const SimulationState& s) {
  const auto g = solvent::angiogenesis_3d::grid_of(s.p);
  const auto nodes = std::min(s.counters.vessel_nodes, s.vessel_capacity());
  const auto segments = std::min(s.counters.segments, s.segment_capacity());
  std::unordered_map<std::int32_t, std::int64_t> point_of;
  point_of.reserve(static_cast<std::size_t>(nodes));
  for (std::int32_t q = 0; q < nodes; ++q) point_of.emplace(s.vessel[q], q);
  std::vector<std::uint8_t> is_tip(static_cast<std::size_t>(nodes), 0);
  for (std::int32_t t = 0; t < s.counters.tips; ++t)
    if (s.active[t]) is_tip[static_cast<std::size_t>(point_of.at(s.node[t]))] = 1;

  std::ostringstream o;
  o.precision(17);
  o << "<?xml version=\"1.0\"?>\n"
    << "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
    << "  <PolyData>\n    <Piece NumberOfPoints=\"" << nodes << "\" NumberOfVerts=\"0\" "
    << "NumberOfLines=\"" << segments << "\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n"
    << "      <Points>\n        <DataArray type=\"Float64\" NumberOfComponents=\"3\" "
       "format=\"ascii\">\n";
  for (std::int32_t q = 0; q < nodes; ++q) {
    std::int32_t i, j, k;
    g.coordinates(s.vessel[q], i, j, k);
    o << i * s.p.h << ' ' << j * s.p.h << ' ' << k * s.p.h << '\n';
  }
  o << "        </DataArray>\n      </Points>\n      <PointData>\n"
    << "        <DataArray type=\"UInt8\" Name=\"tip\" format=\"ascii\">\n";
  for (auto v : is_tip) o << int(v) << '\n';
  o << "        </DataArray>\n      </PointData>\n      <CellData>\n"
    << "        <DataArray type=\"Int32\" Name=\"sprout\" format=\"ascii\">\n";
  for (std::int32_t e = 0; e < segments; ++e) o << s.owner[s.segments[2 * e + 1]] << '\n';
  o << "        </DataArray>\n      </CellData>\n      <Lines>\n"
    << "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n";
  for (std::int32_t e = 0; e < segments; ++e)
    o << point_of.at(s.segments[2 * e]) << ' ' << point_of.at(s.segments[2 * e + 1]) << '\n';
  o << "        </DataArray>\n"
    << "        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n";
  for (std::int32_t e = 0; e < segments; ++e) o << 2 * (e + 1) << '\n';
  o << "        </DataArray>\n      </Lines>\n    </Piece>\n  </PolyData>\n</VTKFile>\n";
  return o.str();
}

}  // namespace solvent::stencil3d
