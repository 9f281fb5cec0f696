#pragma once
// A snapshot of the state, handed to the core's field writer (solvent/io/field_output.hpp),
// which writes it in the run's [output] format and lists it in series.pvd:
//   fields_SSSSSSSS   n (the occupancy: 1 on vessel nodes), f, c and sprout (the sprout
//                     owning the node, -1 on none) on the grid, each rank its own block
//   network_SSSSSSSS  the vessel network as lines: a point per vessel node (tip: 1 on the
//                     active tips), a segment per vessel segment (sprout: its owner)
#include <solvent_stencil3d/simulation_state.hpp>

#include <solvent/communicator.hpp>
#include <solvent/io/field_output.hpp>

namespace solvent::stencil3d {

// Every rank calls it together with its part of the state (its block within its window).
void write_fields(const SimulationState& s, solvent::FieldOutput& out);
// Every rank calls it together (the network is the same on every rank, the owners of its
// nodes each in one rank's block); rank 0 writes it.
void write_network(const SimulationState& s, const solvent::Communicator& comm,
                   solvent::FieldOutput& out);

}  // namespace solvent::stencil3d
