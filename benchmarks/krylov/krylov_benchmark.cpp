// krylov-benchmark: Cheik Ahamed and Magoules' tables 3-12 re-done on this machine - the complex
// vector kernels, complex CSR SpMV against cuSPARSE, and the three Krylov solvers on CPU and GPU,
// on the Helmholtz model's built-in cabin and cylinder meshes at several resolutions.
//
//   krylov-benchmark [--quick] [--sections kernels,spmv,solvers] [--cpu-budget SECONDS]
//
// Without a GPU the CPU columns are still measured. Prints Markdown tables.
#include "benchmark_support.hpp"
#include "device_timing.hpp"

#include <solvent_test/device_timing.hpp>

#include <solvent/device/cuda.hpp>
#include <solvent/device/device_array.hpp>
#include <solvent/plugin_factory.hpp>

#include <solvent_test/test_matrices.hpp>

#include <cstdio>
#include <cstring>
#include <thread>

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace solvent;
using namespace solvent::krylov::bench;

namespace {

// The Helmholtz model's defaults (100 Hz, impedance on the seats or the outlet, source on
// the firewall), on a built-in mesh.
TestMatrix helmholtz_matrix(const std::string& mesh, std::int64_t resolution) {
  TestMatrix m;
  m.name = mesh + "-" + std::to_string(resolution);
  auto model =
      plugins::make_model("helmholtz", {{"mesh", "builtin:" + mesh}, {"resolution", resolution}});
  m.op = model->linear()->matrix();
  m.rhs = std::get<std::vector<complex>>(model->linear()->rhs());
  return m;
}

// Used when the helmholtz model plugin cannot be loaded: the seven-point Helmholtz box.
TestMatrix box_matrix(std::size_t n) {
  TestMatrix m;
  m.name = "fd-box-" + std::to_string(n);
  m.op = std::make_shared<const Operator>(solvent::test::helmholtz_box(n, n, n, 6.0));
  m.rhs.assign(n * n * n, complex(1.0));
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::string sections = "kernels,spmv,solvers";
  Context c;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (!std::strcmp(argv[i], "--sections") && i + 1 < argc)
      sections = argv[++i];
    else if (!std::strcmp(argv[i], "--cpu-budget") && i + 1 < argc)
      c.cpu_budget_s = std::atof(argv[++i]);
    else {
      std::fprintf(
          stderr,
          "usage: krylov-benchmark [--quick] [--sections kernels,spmv,solvers] [--cpu-budget S]\n");
      return 2;
    }
  }
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  std::printf("## Krylov benchmark\n\nCPU: %u hardware threads, %d OpenMP threads.\n",
              std::thread::hardware_concurrency(), threads);
  try {
    const std::string name = solvent::cuda::current_device("krylov-benchmark");
    c.gpu = true;
    c.copy_gbs = test::copy_bandwidth_gbs(std::size_t(1) << 30);
    std::printf(
        "GPU: %s.\nMeasured device-to-device copy bandwidth (1 GiB, read + write): %.0f GB/s.\n",
        test::device_description().c_str(), c.copy_gbs);
  } catch (const DeviceUnavailable& e) {
    std::printf("GPU: none (%s); GPU columns are left empty.\n", e.what());
  }

  try {
    if (sections.find("kernels") != std::string::npos)
      kernel_table(c, quick ? std::vector<std::size_t>{100000, 1000000}
                            : std::vector<std::size_t>{100000, 500000, 1000000, 8000000, 10000000,
                                                       15000000});

    std::vector<TestMatrix> matrices;
    const std::vector<std::int64_t> cabin =
        quick ? std::vector<std::int64_t>{10, 20} : std::vector<std::int64_t>{20, 40, 80, 100};
    const std::vector<std::int64_t> cylinder =
        quick ? std::vector<std::int64_t>{10} : std::vector<std::int64_t>{20, 40, 80};
    try {
      for (auto r : cabin) matrices.push_back(helmholtz_matrix("cabin", r));
      for (auto r : cylinder) matrices.push_back(helmholtz_matrix("cylinder", r));
    } catch (const Error& e) {
      std::printf("\n(helmholtz model unavailable: %s; using seven-point Helmholtz boxes)\n",
                  e.what());
      matrices.clear();
      for (std::size_t n :
           quick ? std::vector<std::size_t>{16, 32} : std::vector<std::size_t>{32, 64, 128})
        matrices.push_back(box_matrix(n));
    }
    std::printf(
        "\nMatrices (Helmholtz model defaults: 100 Hz, c = 343 m/s, impedance on seats/outlet, "
        "source on the firewall/inlet):\n\n| matrix | n | nnz | nnz/row |\n| --- | ---: | ---: | "
        "---: |\n");
    for (const auto& m : matrices)
      std::printf("| %s | %zu | %zu | %.1f |\n", m.name.c_str(), m.csr().rows, m.csr().nnz(),
                  double(m.csr().nnz()) / double(m.csr().rows));
    if (sections.find("spmv") != std::string::npos) spmv_table(c, matrices);
    if (sections.find("solvers") != std::string::npos) {
      // The largest matrix (3.6 million unknowns) is for SpMV only: its CPU solves alone
      // would take minutes of the device lease.
      std::vector<TestMatrix> solvable;
      for (const auto& m : matrices)
        if (m.csr().rows <= 2500000) solvable.push_back(m);
      solver_table(c, solvable, {"bicgstab", "bicgstab-l", "tfqmr"});
    }
  } catch (const std::exception& e) {
    std::printf("\nbenchmark stopped: %s\n", e.what());
    return 1;
  }
  return 0;
}
