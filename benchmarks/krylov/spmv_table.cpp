// Cheik Ahamed and Magoules, table 9: complex CSR SpMV on the Helmholtz matrices - ours on the CPU,
// ours on the GPU (the group size the solvers use, and the best of all group sizes), and cuSPARSE
// (CSR algorithms 1 and 2) on the same device arrays, in the same run. Results are compared with
// the CPU product before timing.
#include "benchmark_support.hpp"
#include "device_timing.hpp"

#include <solvent_test/device_timing.hpp>

#include <solvent/device/device_array.hpp>
#include <solvent_krylov/device_kernels.hpp>
#include <solvent_krylov/host_kernels.hpp>

#include <solvent_test/reference_kernels.hpp>

#include <cmath>
#include <cstdio>

namespace solvent::krylov::bench {
void spmv_table(const Context& c, const std::vector<TestMatrix>& matrices) {
  std::printf("\n### Complex CSR SpMV (Cheik Ahamed and Magoules table 9)\n\n");
  std::printf(
      "Bytes moved at least: nnz x (16 + 4) + (n + 1) x 4 + n x 16 (x read once) + "
      "n x 16 (y). Floor = bytes / measured copy bandwidth.\n\n");
  std::printf(
      "| matrix | n | nnz | CPU ms | GPU ms (group) | best group | cuSPARSE alg1 ms | "
      "cuSPARSE alg2 ms | ours / best cuSPARSE | GPU GB/s | %% of copy BW | floor ms | CPU/GPU "
      "|\n");
  std::printf(
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
      "|\n");
  for (const TestMatrix& m : matrices) {
    const CsrMatrix<complex>& a = m.csr();
    const std::size_t n = a.rows;
    std::vector<complex> x(n), y_cpu(n), y(n);
    for (std::size_t i = 0; i < n; ++i)
      x[i] = complex(std::cos(0.001 * double(i)), std::sin(0.003 * double(i)));
    const double cpu_ms =
        median_host_ms([&] { host::apply<complex>(MatrixView<complex>(&a), x, y_cpu); });
    const double bytes = double(a.nnz()) * 20.0 + double(n + 1) * 4.0 + double(n) * 32.0;
    if (!c.gpu) {
      std::printf("| %s | %zu | %zu | %.3f | - | - | - | - | - | - | - | - | - |\n", m.name.c_str(),
                  n, a.nnz(), cpu_ms);
      continue;
    }
    solvent::cuda::DeviceArray<std::int32_t> rp(a.row_ptr.data(), a.row_ptr.size()),
        ci(a.col_idx.data(), a.nnz());
    solvent::cuda::DeviceArray<complex> v(a.values.data(), a.nnz()), dx(x.data(), n), dy(n);
    const auto rows = static_cast<std::int64_t>(n);
    auto check = [&](const char* who) {
      solvent::cuda::copy_to_host(y.data(), dy.data(), n * sizeof(complex));
      const double e = solvent::test::max_relative_difference(y, y_cpu);
      if (e > 1e-12)
        std::printf("<!-- %s on %s differs from the CPU product: %.2e -->\n", who, m.name.c_str(),
                    e);
    };
    const int group = device::csr_group_for(double(a.nnz()) / double(n));
    double best_ms = 1e300, ours_ms = 0;
    int best_group = 0;
    for (int g : {1, 2, 4, 8, 16, 32}) {
      auto run = [&] {
        device::csr_spmv<complex>(rows, rp.data(), ci.data(), v.data(), dx.data(), dy.data(), g);
      };
      run();
      check("csr_spmv");
      const double ms = test::median_device_ms(run, 20);
      if (g == group) ours_ms = ms;
      if (ms < best_ms) best_ms = ms, best_group = g;
    }
    double cusparse_ms[2];
    for (int alg : {1, 2}) {
      CusparseSpmv cs(rows, static_cast<std::int64_t>(a.nnz()), rp.data(), ci.data(), v.data(),
                      dx.data(), dy.data(), alg);
      cs.run();
      check(alg == 1 ? "cuSPARSE alg1" : "cuSPARSE alg2");
      cusparse_ms[alg - 1] = test::median_device_ms([&] { cs.run(); }, 20);
    }
    const double best_cusparse = std::min(cusparse_ms[0], cusparse_ms[1]);
    const double gbs = bytes / (ours_ms * 1e6);
    std::printf(
        "| %s | %zu | %zu | %.3f | %.4f (%d) | %d | %.4f | %.4f | %.2f | %.0f | %.0f%% | %.4f | "
        "%.1f |\n",
        m.name.c_str(), n, a.nnz(), cpu_ms, ours_ms, group, best_group, cusparse_ms[0],
        cusparse_ms[1], best_cusparse / ours_ms, gbs, 100.0 * gbs / c.copy_gbs,
        bytes / (c.copy_gbs * 1e6), cpu_ms / ours_ms);
    std::fflush(stdout);
  }
}

}  // namespace solvent::krylov::bench
