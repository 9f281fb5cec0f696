#pragma once
// The plugin ABI version: the only number a plugin and the core must agree on exactly.
// Bump it whenever a type that crosses the library boundary changes layout, a virtual
// function is added, removed or reordered in an interface, or the exported symbol changes
// (tests/sdk/abi_layout_test.cpp pins the layouts). 2: the descriptor is a plain extern "C"
// function instead of a Boost.DLL alias. 3: operators (matrix-free, forms), the
// preconditioner kind, LinearSolver's checked setup/solve around setup_impl/solve_impl. 4: Integrator's
// writes_checkpoints and checkpoint_step (resume); RunContext::comm and the descriptor's
// max_ranks (runs over MPI ranks). 5: Stencil7::block (a rank's block of a distributed
// grid) and PluginContext::comm. 6: Communicator::send and receive (pipelines over ranks),
// LinearSolver::measured_speed and PluginContext::rank_speeds (blocks sized by speed).
// 7: ParamSpec's modifiers return the spec by value (a plugin built earlier expects a
// reference back), and families are reached through solvent::family<F>. 8: CsrMatrix::
// distribution (a rank's rows of a distributed sparse matrix) and the many-peer
// Communicator::exchange; ParamSpec::reads_file (input files resolved by the core).
// 9: Stencil7's coefficient arrays are HostArray (pages first touched by all threads).
// 10: RunContext::fields (an integrator's own fields written by the core).
// 11: SolverPolicy::on_iteration (the live monitor) and LinearSolver's blocks rule.
// 12: PluginContext::rank_link and exchanges (a rank too slow for its exchanges gets no block).
// 13: CsrMatrix's arrays are MatrixArray (owned, or borrowed from the caller: no copy of a
// SciPy matrix's arrays).
#include <cstdint>

#define SOLVENT_PLUGIN_ABI_VERSION 13u

namespace solvent {

inline constexpr std::uint32_t plugin_abi_version = SOLVENT_PLUGIN_ABI_VERSION;

// Solvent's release version; a plugin records the one it was built against.
const char* version_string() noexcept;

}  // namespace solvent
