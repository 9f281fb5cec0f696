// peers-benchmark: Solvent's solvers side by side with PETSc's on one core, in one run, on the
// same operator, right-hand side, tolerance and preconditioner; every pair of solutions is
// checked against each other before its times are printed, and a failed check makes the
// program exit 1. Sections: krylov (bicgstab, tfqmr, cg against PETSc's bcgs, tfqmr, cg,
// Jacobi), multigrid (MATM against PETSc with GAMG and BoomerAMG), search (the preconditioner
// that first makes BiCGSTAB and TFQMR converge on a large cabin matrix). The 1D angiogenesis
// comparison is imex-1d-bench's (its PETSc rows); run-peers.sh runs both.
//
//   peers-benchmark [--sections krylov,multigrid[,search]] [--cabin 10,20,30] [--poisson-csr 48]
//                   [--grid 64[,128]] [--search-cabin 40] [--repeats 3] [--budget-s 6]
//                   [--matrix FILE.mtx]
//
// The defaults take about two minutes on one core of the development machine; run-peers.sh
// --full adds the 128^3 grids and the search (about seven minutes more).
//
// One core means one thread: the program refuses to run unless OMP_NUM_THREADS=1.
#include "peers.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace {

std::vector<std::int64_t> list(const std::string& s) {
  std::vector<std::int64_t> v;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');) v.push_back(std::stoll(item));
  return v;
}

peers::Options parse(int argc, char** argv) {
  peers::Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--sections")
      o.sections = value;
    else if (key == "--cabin")
      o.cabin = list(value);
    else if (key == "--poisson-csr")
      o.poisson_csr = std::stoll(value);
    else if (key == "--grid")
      o.grid = list(value);
    else if (key == "--search-cabin")
      o.search_cabin = std::stoll(value);
    else if (key == "--repeats")
      o.repeats = std::stoi(value);
    else if (key == "--budget-s")
      o.budget_s = std::stod(value);
    else if (key == "--matrix")
      o.matrix_file = value;
    else
      throw std::runtime_error("unknown option " + key + " (see the head of peers_benchmark.cpp)");
  }
  if (argc % 2 == 0) throw std::runtime_error(std::string("option ") + argv[argc - 1] + " has no value");
  return o;
}

}  // namespace

int main(int argc, char** argv) try {
  const peers::Options o = parse(argc, argv);
  // The thread count of OpenMP (Solvent's kernels, hypre) and OpenBLAS is fixed when they
  // start, before main could change it, so it is asked of the environment.
  const char* omp = std::getenv("OMP_NUM_THREADS");
  if (!omp || std::strcmp(omp, "1") != 0)
    throw std::runtime_error("run with OMP_NUM_THREADS=1 (one core; run-peers.sh sets it)");
  std::string load = "unknown";
  if (std::ifstream f("/proc/loadavg"); f) std::getline(f, load);
  std::printf("## Peers: Solvent against PETSc, one core\n\nload average at start: %s\n", load.c_str());
  std::fflush(stdout);
  peers::Checks checks;
  if (o.sections.find("krylov") != std::string::npos) peers::krylov_section(o, checks);
  if (o.sections.find("multigrid") != std::string::npos) peers::multigrid_section(o, checks);
  if (o.sections.find("search") != std::string::npos) peers::search_section(o, checks);
  if (!checks.all_passed()) {
    std::printf("\nsome check failed (CHECK FAILED above)\n");
    return 1;
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "peers-benchmark: %s\n", e.what());
  return 2;
}
