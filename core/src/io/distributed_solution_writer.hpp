#pragma once
// A steady solution held in blocks by several ranks (FieldLayout::block), written as one
// VTK dataset that ParaView opens whole:
//   solution.pvti                    PImageData, written by rank 0: the whole grid's extent,
//                                    origin and spacing, and one piece per rank
//   solution_pieces/piece_RRRR.vti   rank RRRR's piece, written by that rank
// (unconverged_iterate.pvti and unconverged_iterate_pieces/ for a solve that did not
// converge). Each piece covers its block's global index range and, on each upper side
// where a neighbouring block lies, one node more: the neighbour's first layer, received
// through halo exchanges. Neighbouring pieces so share a layer of nodes, the cells between
// blocks are drawn, and the dataset has no gaps. Rank 0 lists every piece among the run's
// output files, so that --overwrite removes them.
// With [output] format = "vtkhdf": solution.vtkhdf alone, one file into which every rank
// writes its own block collectively (vtkhdf_writer.hpp); no pieces, no halo exchange.
#include "io/vtk_writer.hpp"

#include <solvent/model.hpp>
#include <solvent/observer.hpp>
#include <solvent/parameters.hpp>

#include <spdlog/logger.h>

#include <filesystem>

namespace solvent {

// Whether a field in `layout` is held in blocks by more than one rank.
bool distributed_grid_layout(const FieldLayout& layout);

// Passes everything on to `next`; on_solution first writes the solution's pieces (every
// rank calls it: it exchanges halos and agrees on the outcome, so a piece that cannot be
// written fails the run on every rank, reported by rank 0).
class DistributedSolutionWriter : public Observer {
 public:
  // layout: the solution's layout on this rank, distributed_grid_layout(layout);
  // output: the [output] parameters (solution = false: only an unconverged iterate).
  DistributedSolutionWriter(std::filesystem::path dir, FieldLayout layout,
                            const Parameters& output, Observer& next, spdlog::logger& log);

  void on_start(const FieldLayout& layout) override { next_.on_start(layout); }
  void on_step(const StepInfo& info, std::span<const double> u,
               std::span<const Observable> observables) override {
    next_.on_step(info, u, observables);
  }
  void on_solution(const Vector& x, const SolveStats& stats,
                   std::span<const Observable> observables) override;

 private:
  void write(const std::vector<double>* x, const std::string& stem);

  std::filesystem::path dir_;
  FieldLayout layout_;
  bool write_solution_;
  bool fields_;  // [output] format is not "none"
  VtkFormat vtk_;
  Observer& next_;
  spdlog::logger& log_;
};

}  // namespace solvent
