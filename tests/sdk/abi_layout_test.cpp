// The layouts of the types that cross the plugin boundary, pinned for this platform
// (x86-64, GCC's libstdc++): a change here without a new SOLVENT_PLUGIN_ABI_VERSION would let
// an old plugin load and misread the core's objects. When one of these fails, bump the ABI
// version in core/include/solvent/abi.hpp and then the pinned numbers.
#include <solvent/solvent.hpp>

#include <doctest/doctest.h>

#include <cstddef>

using namespace solvent;

TEST_CASE("the ABI version this layout belongs to") { CHECK(plugin_abi_version == 13u); }

TEST_CASE("the plugin descriptor: abi_version first, every field where the loader reads it") {
  CHECK(offsetof(PluginDescriptor, abi_version) == 0);  // never moves: read before the check
  CHECK(offsetof(PluginDescriptor, solvent_version) == 8);
  CHECK(offsetof(PluginDescriptor, name) == 16);
  CHECK(offsetof(PluginDescriptor, kind) == 24);
  CHECK(offsetof(PluginDescriptor, version) == 32);
  CHECK(offsetof(PluginDescriptor, summary) == 40);
  CHECK(offsetof(PluginDescriptor, device) == 48);
  CHECK(offsetof(PluginDescriptor, schema) == 56);
  CHECK(offsetof(PluginDescriptor, make_model) == 64);
  CHECK(offsetof(PluginDescriptor, make_integrator) == 72);
  CHECK(offsetof(PluginDescriptor, make_linear_solver) == 80);
  CHECK(offsetof(PluginDescriptor, make_preconditioner) == 88);
  CHECK(offsetof(PluginDescriptor, max_ranks) == 96);
  CHECK(sizeof(PluginDescriptor) == 104);
  CHECK(static_cast<std::uint32_t>(PluginKind::Model) == 1);
  CHECK(static_cast<std::uint32_t>(PluginKind::Integrator) == 2);
  CHECK(static_cast<std::uint32_t>(PluginKind::LinearSolver) == 3);
  CHECK(static_cast<std::uint32_t>(PluginKind::Preconditioner) == 4);
}

TEST_CASE("the values exchanged with plugin objects") {
  CHECK(offsetof(SolveStats, iterations) == 0);
  CHECK(offsetof(SolveStats, residual) == 8);
  CHECK(offsetof(SolveStats, converged) == 16);
  CHECK(offsetof(SolveStats, status) == 24);
  CHECK(offsetof(SolveStats, residual_history) == 56);
  CHECK(sizeof(SolveStats) == 80);
  CHECK(sizeof(StepInfo) == 32);
  CHECK(sizeof(Observable) == 40);
  CHECK(sizeof(PluginContext) == 120);
  CHECK(sizeof(GridBlocks) == 96);
  CHECK(sizeof(GridBlock) == 112);
  CHECK(sizeof(ParamSpec) == 240);
  CHECK(sizeof(Operator) == 232);  // the largest storage (CsrMatrix) and the index
  CHECK(sizeof(DenseMatrix<double>) == 40);
  CHECK(sizeof(CsrMatrix<complex>) == 224);
  CHECK(sizeof(MatrixArray<double>) == 64);
  CHECK(sizeof(BandedMatrix<double>) == 48);
  CHECK(sizeof(Stencil7<double>) == 152);
  CHECK(sizeof(Vector) == 32);
  CHECK(sizeof(OperatorForm) == 8);
  CHECK(static_cast<int>(OperatorKind::MatrixFree) == 4);
  CHECK(sizeof(MatrixFree<double>) == 16);
  CHECK(sizeof(OperatorHints) == 24);
}

TEST_CASE("the interface objects: a vtable and, for the solver and the preconditioner, the "
          "core's hidden state only") {
  // LinearSolver and Preconditioner keep everything the core checks behind one pointer, so
  // their checks can grow without changing the layout a plugin derives from.
  CHECK(sizeof(LinearSolver) == 16);
  CHECK(sizeof(Preconditioner) == 16);
  CHECK(sizeof(Integrator) == 8);
  CHECK(sizeof(Model) == 8);
}
