#pragma once
// The core's FieldOutput (solvent/io/field_output.hpp): an integrator's own fields and lines,
// written through vtk_writer and vtkhdf_writer in the run's [output] format and listed with
// their times in series.pvd, which rank 0 rewrites whole after each file (small, and whole
// whenever the run stops). A resumed run keeps the earlier run's entries before its first
// step, as it keeps its rows of observables.csv.
#include "io/vtk_writer.hpp"

#include <solvent/communicator.hpp>
#include <solvent/io/field_output.hpp>
#include <solvent/parameters.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace solvent {

class FieldSeries : public FieldOutput {
 public:
  // output: the [output] parameters; resume: the run continues one in `dir`.
  FieldSeries(std::filesystem::path dir, const Parameters& output, const Communicator& comm,
              bool resume);

  void write_grid(std::string_view stem, std::int64_t step, double t, const GridBlockOutput& grid,
                  const std::vector<std::string>& components,
                  std::span<const double> values) override;
  void write_lines(std::string_view stem, std::int64_t step, double t,
                   const LinesOutput& lines) override;

 private:
  struct Entry {
    double t;
    std::string stem;
    std::string file;  // relative to dir_
  };
  void add_to_series(std::int64_t step, double t, std::string_view stem, std::string file);

  std::filesystem::path dir_;
  bool fields_;  // [output] format is not "none"
  VtkFormat format_;
  const Communicator& comm_;
  bool resume_;
  std::vector<Entry> series_;
  std::vector<std::string> parts_;  // the stems in the order they first came: ParaView's parts
};

}  // namespace solvent
