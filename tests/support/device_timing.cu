#include <solvent_test/device_timing.hpp>

#include <solvent/device/cuda.hpp>
#include <solvent/device/device_array.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

namespace solvent::test {
namespace {
constexpr const char* context = "benchmark timing";
void check(cudaError_t e, const char* what) { cuda::check(e, context, what); }
}  // namespace

double median_device_ms(const std::function<void()>& launch, int reps, int warmup) {
  for (int i = 0; i < warmup; ++i) launch();
  check(cudaDeviceSynchronize(), "warm-up");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    check(cudaEventRecord(start), "cudaEventRecord");
    launch();
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float t = 0;
    check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
    ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(ms.begin(), ms.end());
  const std::size_t n = ms.size();
  return n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
}

double copy_bandwidth_gbs(std::size_t bytes) {
  cuda::current_device(context);  // DeviceUnavailable, not a cudaMalloc failure
  cuda::DeviceArray<std::byte> from(bytes, context), to(bytes, context);
  std::byte *a = from.data(), *b = to.data();
  const double ms = median_device_ms(
      [&] { check(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy"); }, 10);
  return 2.0 * double(bytes) / (ms * 1e6);
}

std::string device_description() {
  const std::string name = cuda::current_device(context);
  int device = 0, driver = 0, runtime = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  return name + ", " + std::to_string(p.multiProcessorCount) + " SMs, " +
         std::to_string(p.totalGlobalMem >> 30) + " GiB, L2 " +
         std::to_string(p.l2CacheSize >> 20) + " MiB, driver " + std::to_string(driver) +
         ", runtime " + std::to_string(runtime);
}

}  // namespace solvent::test
