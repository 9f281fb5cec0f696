// Cheik Ahamed and Magoules, tables 3-8: the complex vector kernels on the CPU (OpenMP, all cores)
// and the GPU, per vector length. Each GPU result is compared with the CPU one before timing.
#include "benchmark_support.hpp"
#include "device_timing.hpp"

#include <solvent_test/device_timing.hpp>

#include <solvent/device/device_array.hpp>
#include <solvent_krylov/device_kernels.hpp>
#include <solvent_krylov/host_kernels.hpp>

#include <cmath>
#include <cstdio>
#include <random>

namespace solvent::krylov::bench {
namespace {

std::vector<complex> random_complex(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<complex> v(n);
  for (auto& e : v) e = complex(u(rng), u(rng));
  return v;
}

struct Kernel {
  const char* name;
  double bytes_per_element;  // fewest bytes moved through memory
  double flops_per_element;
};

}  // namespace

void kernel_table(const Context& c, const std::vector<std::size_t>& sizes) {
  const Kernel kernels[] = {{"assign (y = x)", 32, 0},          {"scale (x = a x)", 32, 6},
                            {"axpy (y += a x)", 48, 8},         {"element-wise product", 48, 6},
                            {"dot <x, y> (conjugated)", 32, 8}, {"2-norm", 16, 4}};
  std::printf("\n### Complex vector kernels (Cheik Ahamed and Magoules tables 3-8)\n\n");
  std::printf(
      "| kernel | n | CPU ms | CPU GB/s | GPU ms | GPU GB/s | GPU Gflop/s | %% of copy BW | "
      "CPU/GPU |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  const complex a(0.75, -0.5);
  for (std::size_t n : sizes) {
    const auto x = random_complex(n, 1), y0 = random_complex(n, 2);
    // Unit-modulus factors keep repeated element-wise products away from denormals.
    std::vector<complex> unit(n);
    for (std::size_t i = 0; i < n; ++i) unit[i] = std::polar(1.0, 6.0 * x[i].real());
    std::vector<complex> y = y0;
    std::unique_ptr<solvent::cuda::DeviceArray<complex>> dx, dy, du, work;
    std::vector<complex> host_check(n);
    if (c.gpu) {
      dx = std::make_unique<solvent::cuda::DeviceArray<complex>>(x.data(), n);
      dy = std::make_unique<solvent::cuda::DeviceArray<complex>>(y0.data(), n);
      du = std::make_unique<solvent::cuda::DeviceArray<complex>>(unit.data(), n);
      work = std::make_unique<solvent::cuda::DeviceArray<complex>>(device::dots_workspace(2));
    }
    const auto N = static_cast<std::int64_t>(n);
    for (int k = 0; k < 6; ++k) {
      complex scalar_out{};
      std::function<void()> cpu, gpu;
      switch (k) {
        case 0:
          cpu = [&] { host::assign<complex>(x, y); };
          if (c.gpu) gpu = [&] { device::assign<complex>(N, dx->data(), dy->data()); };
          break;
        case 1:
          cpu = [&] { host::scale<complex>(a, y); };
          if (c.gpu) gpu = [&] { device::scale<complex>(N, a, dy->data()); };
          break;
        case 2:
          cpu = [&] { host::axpy<complex>(a, x, y); };
          if (c.gpu) gpu = [&] { device::axpy<complex>(N, a, dx->data(), dy->data()); };
          break;
        case 3:
          cpu = [&] { host::elementwise_product<complex>(unit, y); };
          if (c.gpu) gpu = [&] { device::elementwise_product<complex>(N, du->data(), dy->data()); };
          break;
        case 4:
          cpu = [&] { scalar_out = host::dot<complex>(x, y); };
          if (c.gpu)
            gpu = [&] {
              const complex* xs[1] = {dx->data()};
              const complex* ys[1] = {dy->data()};
              device::dots<complex>(N, xs, ys, 1, work->data(), &scalar_out);
            };
          break;
        case 5:
          cpu = [&] { scalar_out = host::norm2<complex>(x); };
          if (c.gpu)
            gpu = [&] {
              const complex* xs[1] = {dx->data()};
              device::dots<complex>(N, xs, xs, 1, work->data(), &scalar_out);
            };
          break;
      }
      // Correctness first: one run of each from the same inputs, compared.
      double error = 0.0;
      if (c.gpu) {
        y = y0;
        solvent::cuda::copy_to_device(dy->data(), y0.data(), n * sizeof(complex));
        cpu();
        const complex cpu_scalar = scalar_out;
        gpu();
        solvent::cuda::synchronize();
        if (k >= 4) {
          const complex ref = k == 5 ? complex(cpu_scalar.real() * cpu_scalar.real()) : cpu_scalar;
          error = std::abs(scalar_out - ref) / std::abs(ref);
        } else {
          solvent::cuda::copy_to_host(host_check.data(), dy->data(), n * sizeof(complex));
          for (std::size_t i = 0; i < n; ++i)
            error = std::max(error, std::abs(host_check[i] - y[i]));
        }
      }
      // Values stay bounded under repetition: |a| < 1 and |x_i| < 1.5.
      const double cpu_ms = median_host_ms(cpu);
      const double bytes = kernels[k].bytes_per_element * double(n);
      const double cpu_gbs = bytes / (cpu_ms * 1e6);
      if (c.gpu) {
        const double gpu_ms = test::median_device_ms(gpu, 20);
        const double gbs = bytes / (gpu_ms * 1e6);
        std::printf("| %s | %zu | %.3f | %.1f | %.4f | %.0f | %.1f | %.0f%% | %.1f |%s\n",
                    kernels[k].name, n, cpu_ms, cpu_gbs, gpu_ms, gbs,
                    kernels[k].flops_per_element * double(n) / (gpu_ms * 1e6),
                    100.0 * gbs / c.copy_gbs, cpu_ms / gpu_ms,
                    error > 1e-12 ? " **GPU result differs**" : "");
      } else {
        std::printf("| %s | %zu | %.3f | %.1f | - | - | - | - | - |\n", kernels[k].name, n, cpu_ms,
                    cpu_gbs);
      }
      std::fflush(stdout);
    }
  }
}

}  // namespace solvent::krylov::bench
