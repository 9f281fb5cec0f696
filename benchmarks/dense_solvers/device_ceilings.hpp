#pragma once
// The two hardware ceilings the benchmark's floors are computed from, measured once on
// the device: device-to-device copy bandwidth and cuBLAS DGEMM rate (METHOD.md).
#include <string>

namespace dense_bench {

struct DeviceCeilings {
  std::string device;
  double copy_gb_per_s = 0.0;            // (bytes read + bytes written) / time
  double host_to_device_gb_per_s = 0.0;  // pageable host memory, as the solvers send it
  double dgemm_tflop_per_s = 0.0;
};

// Empty device name when there is no GPU.
DeviceCeilings measure_device_ceilings();

}  // namespace dense_bench
