#pragma once
// Host-to-device copies of a large matrix through page-locked memory. A copy from pageable
// memory goes through the driver's own staging at one host thread's memcpy rate (7.5 GB/s
// on the H200's host, a third of a cold solve at n = 1600); here a few host threads each
// copy their share into their own pair of page-locked chunks while the copy engine sends
// the chunks already filled.
#include <solvent/device/device_array.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace solvent::dense {

class PinnedUpload {
 public:
  PinnedUpload() = default;
  ~PinnedUpload();
  PinnedUpload(const PinnedUpload&) = delete;
  PinnedUpload& operator=(const PinnedUpload&) = delete;

  // Enqueues the copy of count doubles on stream and returns once host has been read (the
  // copy itself may still be under way). Small copies go straight from pageable memory.
  void upload(double* device, const double* host, std::size_t count, cudaStream_t stream);

 private:
  struct Lane {
    cuda::PinnedArray<double> chunks[2];
    cudaEvent_t sent[2] = {};  // the last copy out of each chunk
  };
  std::vector<Lane> lanes_;
  int device_ = 0;
};

}  // namespace solvent::dense
