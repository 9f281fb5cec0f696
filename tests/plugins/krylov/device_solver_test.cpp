// The CUDA Krylov plugins against their CPU twins: same algorithm, so the same iteration
// counts (up to the order of floating-point sums) and the same solutions.
#include <solvent_test/solver_checks.hpp>
#include <solvent_test/test_matrices.hpp>

#include <doctest/doctest.h>

#include <initializer_list>

using namespace solvent;
using namespace solvent::test;
using testkit::Settings;

TEST_CASE("conformance of the CUDA plugins") {
  for (const char* name : {"bicgstab-cuda", "bicgstab-l-cuda", "tfqmr-cuda"})
    check_conformance(name);
}

TEST_CASE("each CUDA plugin matches its CPU twin on a complex Helmholtz system") {
  const auto a = helmholtz_box(24, 24, 24, 8.0);
  const auto op = share(a);
  std::vector<complex> b(a.rows);
  for (std::size_t i = 0; i < a.rows; ++i)
    b[i] = complex(1.0 + 0.1 * double(i % 7), 0.05 * double(i % 3));
  for (const std::string name : {"bicgstab", "bicgstab-l", "tfqmr"})
    for (const std::string pc : {"none", "jacobi", "ilu0"}) {
      CAPTURE(name);
      CAPTURE(pc);
      std::vector<complex> x_cpu(a.rows), x_gpu(a.rows);
      const auto cpu = solve_with<complex>(name, {}, op, b, x_cpu, pc);
      const auto gpu = solve_with<complex>(std::string(name) + "-cuda", {}, op, b, x_gpu,
                                           pc == "none" ? pc : pc + "-cuda");
      CHECK(gpu.converged);
      CHECK(gpu.status == cpu.status);
      // The device's reductions sum in another order: on this indefinite operator the
      // iteration counts drift apart by up to ~10 %, the solutions agree (below).
      INFO("iterations: cpu " << cpu.iterations << ", gpu " << gpu.iterations);
      CHECK(std::abs(double(gpu.iterations - cpu.iterations)) <= 0.1 * double(cpu.iterations) + 2);
      check_stats_honest(a, b, x_gpu, gpu);
      CHECK(max_relative_difference(x_gpu, x_cpu) <= 1e-6);
    }
}

// Each CPU solver and its CUDA twin (Jacobi) on a stencil: both sum dot products exactly over
// lines, but a line in another order (the CPU in index order, a warp by lanes and a tree),
// so the counts may differ by a few; the solutions agree.
template <class T>
void cpu_and_cuda_agree(const Stencil7<T>& s, std::initializer_list<std::string> names,
                        std::uint64_t seed) {
  const auto op = share(s);
  const auto b = random_vector<T>(s.size(), seed);
  std::vector<T> x_cpu(s.size()), x_gpu(s.size());
  for (const std::string& name : names) {
    CAPTURE(name);
    const auto cpu = solve_with<T>(name, {}, op, b, x_cpu, "jacobi");
    const auto gpu = solve_with<T>(name + "-cuda", {}, op, b, x_gpu, "jacobi-cuda");
    CHECK(cpu.converged);
    CHECK(gpu.converged);
    INFO("iterations: cpu " << cpu.iterations << ", gpu " << gpu.iterations);
    CHECK(std::abs(double(gpu.iterations - cpu.iterations)) <= 0.05 * double(cpu.iterations) + 2);
    check_stats_honest(s, b, x_gpu, gpu);
    CHECK(max_relative_difference(x_gpu, x_cpu) <= 1e-7);
  }
}

TEST_CASE("cg-cuda and bicgstab-cuda on a real Stencil7") {
  cpu_and_cuda_agree(laplacian_stencil<double>(40, 30, 20, 0.0), {"cg", "bicgstab"}, 3);
}

TEST_CASE("bicgstab-cuda and tfqmr-cuda on a complex Stencil7") {
  // A shifted Laplacian, absorbing (imaginary shift): the complex exact line reductions.
  cpu_and_cuda_agree(laplacian_stencil<complex>(24, 20, 16, complex(0.0, 0.5)),
                     {"bicgstab", "tfqmr"}, 5);
}

TEST_CASE("CUDA plugins name breakdowns and limits like the CPU ones") {
  CsrMatrix<double> a;  // {{0, 1, 1}, {-1, 0, 0}, {0, 0, 1}}: omega = 0 exactly at step one
  a.rows = a.cols = 3;
  a.row_ptr = {0, 2, 3, 4};
  a.col_idx = {1, 2, 0, 2};
  a.values = {1, 1, -1, 1};
  std::vector<double> b{1, 0, 1}, x(3);
  auto st = solve_with<double>("bicgstab-cuda", {}, share(a), b, x);
  CHECK(st.status == "breakdown: omega = 0");
  CHECK_FALSE(st.converged);
  check_stats_honest(a, b, x, st);

  const auto h = helmholtz_box(16, 16, 16, 6.0);
  std::vector<complex> bh(h.rows, complex(1.0)), xh(h.rows);
  st = solve_with<complex>("tfqmr-cuda", {{"max_iterations", std::int64_t(4)}}, share(h), bh, xh);
  CHECK(st.status == "max_iterations");
  CHECK(st.iterations == 4);
  check_stats_honest(h, bh, xh, st, false);
}
