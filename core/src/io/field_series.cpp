#include "io/field_series.hpp"

#include "io/output_manifest.hpp"
#include "io/vtkhdf_writer.hpp"
#include "ranks/communicator_world.hpp"

#include <solvent/errors.hpp>
#include <solvent/io/output.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <system_error>

namespace solvent {

namespace fs = std::filesystem;

FieldSeries::FieldSeries(fs::path dir, const Parameters& output, const Communicator& comm,
                         bool resume)
    : dir_(std::move(dir)),
      fields_(vtk_fields_written(output)),
      format_(vtk_format(output)),
      comm_(comm),
      resume_(resume) {}

namespace {

// "f0 f1 f2 h0 h1 h2": a rank's first node and held nodes per axis, for rank 0's .pvti.
std::string piece_text(const GridBlockOutput& g) {
  return fmt::format("{} {} {} {} {} {}", g.first[0], g.first[1], g.first[2], g.held(0), g.held(1),
                     g.held(2));
}

VtkPiece piece_of(const std::string& text, std::string source) {
  VtkPiece p;
  std::array<std::int64_t, 3> held{};
  std::istringstream in(text);
  in >> p.first[0] >> p.first[1] >> p.first[2] >> held[0] >> held[1] >> held[2];
  for (std::size_t d = 0; d < 3; ++d) p.last[d] = p.first[d] + held[d] - 1;
  p.source = std::move(source);
  return p;
}

}  // namespace

// Long because each format is a few collective steps every rank takes in the same order.
void FieldSeries::write_grid(std::string_view stem, std::int64_t step, double t,
                             const GridBlockOutput& grid,
                             const std::vector<std::string>& components,
                             std::span<const double> values) {
  if (!fields_) return;
  const std::string name = fmt::format("{}_{:08d}", stem, step);
  const VtkImage image{grid.origin, grid.spacing};
  const bool root = comm_.rank() == 0;
  std::string file;
  if (format_.hdf) {
    // One file, each rank writing its own block into it: no pieces, nothing gathered.
    file = name + ".vtkhdf";
    agree_across_ranks(comm_, [&] {
      write_vtkhdf_image(dir_ / file, image, grid.nodes,
                         {grid.first, grid.count, {grid.held(0), grid.held(1), grid.held(2)}},
                         components, values, format_.float32, t, comm_);
      return std::string();
    });
  } else if (comm_.size() == 1) {
    file = name + ".vti";
    VtkPiece whole;
    for (std::size_t d = 0; d < 3; ++d) whole.last[d] = grid.nodes[d] - 1;
    write_vtk_image_piece(dir_ / file, image, whole, components, values, format_, t);
  } else {
    // Every rank its piece (its block and the layer it shares with each upper neighbour),
    // rank 0 the .pvti listing them once all are written.
    const std::string folder = name + "_pieces";
    const auto source = [&](int rank) {
      return (fs::path(folder) / fmt::format("piece_{:04d}.vti", rank)).generic_string();
    };
    const auto all = comm_.gather_all(piece_text(grid));
    agree_across_ranks(comm_, [&] {
      std::error_code ec;
      fs::create_directories(dir_ / folder, ec);  // by every rank at once: one of them makes it
      if (!fs::is_directory(dir_ / folder))
        throw Error(fmt::format("cannot create the folder {}: {}", (dir_ / folder).string(),
                                ec ? ec.message() : "it is not a directory"));
      write_vtk_image_piece(dir_ / source(comm_.rank()), image,
                            piece_of(all[std::size_t(comm_.rank())], source(comm_.rank())),
                            components, values, format_, t);
      return std::string();
    });
    file = name + ".pvti";
    agree_across_ranks(comm_, [&] {
      if (!root) return std::string();
      std::vector<VtkPiece> pieces;
      for (int r = 0; r < comm_.size(); ++r) {
        pieces.push_back(piece_of(all[std::size_t(r)], source(r)));
        note_written(dir_ / pieces.back().source);  // so that --overwrite removes it
      }
      write_vtk_image_pieces(dir_ / file, image, grid.nodes, components, pieces, format_);
      return std::string();
    });
  }
  if (root) add_to_series(step, t, stem, file);
}

void FieldSeries::write_lines(std::string_view stem, std::int64_t step, double t,
                              const LinesOutput& lines) {
  if (!fields_) return;
  // Lines are small and the same on every rank; VTKHDF 1.0 has no PolyData, so they are
  // binary VTK XML in every format.
  const std::string file = fmt::format("{}_{:08d}.vtp", stem, step);
  agree_across_ranks(comm_, [&] {
    if (comm_.rank() == 0) write_vtk_lines(dir_ / file, lines, format_, t);
    return std::string();
  });
  if (comm_.rank() == 0) add_to_series(step, t, stem, file);
}

void FieldSeries::add_to_series(std::int64_t step, double t, std::string_view stem,
                                std::string file) {
  if (resume_) {
    // The earlier run's entries before this step, as they were.
    resume_ = false;
    std::ifstream in(dir_ / "series.pvd");
    static const std::regex entry(
        R"re(<DataSet timestep="([^"]*)" part="([0-9]+)" file="(([^"/]+)_([0-9]+)\.[a-z]+)"/>)re");
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (!std::regex_search(line, m, entry) || std::stoll(m[5]) >= step) continue;
      const auto part = std::stoul(m[2]);
      if (parts_.size() <= part) parts_.resize(part + 1);
      parts_[part] = m[4];
      series_.push_back({std::stod(m[1]), m[4], m[3]});
    }
  }
  if (std::find(parts_.begin(), parts_.end(), stem) == parts_.end()) parts_.emplace_back(stem);
  series_.push_back({t, std::string(stem), std::move(file)});
  std::string text =
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\">\n  <Collection>\n";
  for (const auto& e : series_)
    text += fmt::format("    <DataSet timestep=\"{:.17g}\" part=\"{}\" file=\"{}\"/>\n", e.t,
                        std::find(parts_.begin(), parts_.end(), e.stem) - parts_.begin(), e.file);
  text += "  </Collection>\n</VTKFile>\n";
  write_file_atomic(dir_ / "series.pvd", text);
}

}  // namespace solvent
