// The distributed conformance kit on every linear solver of this build that runs on any
// number of ranks, under however many ranks mpirun started: the grid-equations-3d system
// over the ranks against the same system whole. Every one of them, CPU and CUDA (skipped
// without a GPU) alike, must repeat the one-rank solve bit for bit: their stencil dot
// products are exact line sums. Except matm-cuda, whose inner products are the ranks' device
// sums added rounded, and petsc (PETSc's own reductions): they must repeat the one-rank
// solve to rounding.
#include <doctest/doctest.h>

#include "ranks/communicator_world.hpp"

#include <solvent/testkit.hpp>

#include <cstdlib>
#include <string>

namespace tk = solvent::testkit;

TEST_CASE("every distributed linear solver solves over the ranks as on one") {
  const solvent::Communicator& comm = solvent::world();
  if (const char* size = std::getenv("OMPI_COMM_WORLD_SIZE"))
    REQUIRE(comm.size() == std::atoi(size));
  int judged = 0;
  for (const auto& name : tk::installed(solvent::PluginKind::LinearSolver)) {
    if (!tk::runs_distributed(name, solvent::PluginKind::LinearSolver)) continue;
    CAPTURE(name);
    // petsc: PETSc's reductions are its own (to rounding, not bit for bit), and its default
    // ilu has no parallel form in PETSc (Jacobi has, and gives the same iterates on any split).
    const bool petsc = name == "petsc";
    tk::Settings settings{{"tolerance", 1e-10}};
    if (petsc) settings["pc_type"] = std::string("jacobi");
    try {
      for (const auto& problem : tk::distributed_linear_solver_problems(
               name, settings, comm, name != "matm-cuda" && !petsc))
        FAIL_CHECK(name << ": " << problem);
      ++judged;
    } catch (const solvent::DeviceUnavailable&) {
      MESSAGE(name << ": skipped, no device");
    }
  }
  CHECK(judged >= 5);  // cg, bicgstab, bicgstab-l, tfqmr, matm
}

TEST_CASE(
    "every distributed linear solver that takes CSR solves a matrix split by rows as one rank") {
  const solvent::Communicator& comm = solvent::world();
  int judged = 0;
  for (const auto& name : tk::installed(solvent::PluginKind::LinearSolver)) {
    if (!tk::runs_distributed(name, solvent::PluginKind::LinearSolver)) continue;
    if (name == "matm" || name == "matm-cuda") continue;  // seven-point operators only
    CAPTURE(name);
    tk::Settings settings{{"tolerance", 1e-10}};
    if (name == "petsc") settings["pc_type"] = std::string("jacobi");
    try {
      for (const auto& problem : tk::distributed_csr_problems(name, settings, comm))
        FAIL_CHECK(name << ": " << problem);
      ++judged;
    } catch (const solvent::DeviceUnavailable&) {
      MESSAGE(name << ": skipped, no device");
    }
  }
  CHECK(judged >= 4);  // cg, bicgstab, bicgstab-l, tfqmr
}
