#include "cuda/pinned_upload.cuh"

#include "cuda/device_support.cuh"

#include <solvent/device/cuda.hpp>

#include <algorithm>
#include <cstring>
#include <thread>

namespace solvent::dense {
namespace {

constexpr std::size_t kChunkDoubles = std::size_t{1} << 19;  // 4 MiB
// Host threads copying at once. More lanes were measured on the H100 machine (16 cores):
// 8 and 12 gave 3.2 and 2.9 ms for a 3200 x 3200 matrix against 3.7 with 4 in one run, and
// 4.4 ms with 8 in the next, at a spread between runs larger than the difference; 4.
constexpr int kLanes = 4;
// Below this the threads cost more than they save: one pageable copy.
constexpr std::size_t kPinnedFromDoubles = 2 * kChunkDoubles;

void check(cudaError_t status, const char* what) { cuda::check(status, kGeppCuda, what); }

// One lane's share, chunk by chunk through its two page-locked buffers. Runs on its own
// thread, whose current device has to be set; errors are returned, not thrown.
cudaError_t send(double* const chunks[2], cudaEvent_t const sent[2], int device, double* target,
                 const double* host, std::size_t count, cudaStream_t stream) {
  cudaError_t status = cudaSetDevice(device);
  for (std::size_t done = 0, q = 0; status == cudaSuccess && done < count;
       done += kChunkDoubles, ++q) {
    const std::size_t b = q % 2;
    const std::size_t length = std::min(kChunkDoubles, count - done);
    status = cudaEventSynchronize(sent[b]);  // the chunk's previous copy has left it
    if (status != cudaSuccess) break;
    std::memcpy(chunks[b], host + done, length * sizeof(double));
    status = cudaMemcpyAsync(target + done, chunks[b], length * sizeof(double),
                             cudaMemcpyHostToDevice, stream);
    if (status == cudaSuccess) status = cudaEventRecord(sent[b], stream);
  }
  return status;
}

}  // namespace

PinnedUpload::~PinnedUpload() {
  for (Lane& lane : lanes_) {
    for (int b = 0; b < 2; ++b) {
      if (lane.sent[b] != nullptr) {
        cudaEventSynchronize(lane.sent[b]);
        cudaEventDestroy(lane.sent[b]);
      }
    }
  }
}

void PinnedUpload::upload(double* device, const double* host, std::size_t count,
                          cudaStream_t stream) {
  if (count < kPinnedFromDoubles) {
    check(cudaMemcpyAsync(device, host, count * sizeof(double), cudaMemcpyHostToDevice, stream),
          "cudaMemcpyAsync to device");
    return;
  }
  if (lanes_.empty()) {
    check(cudaGetDevice(&device_), "cudaGetDevice");
    lanes_.resize(kLanes);
    for (Lane& lane : lanes_) {
      for (int b = 0; b < 2; ++b) {
        lane.chunks[b] = cuda::PinnedArray<double>(kChunkDoubles, kGeppCuda);
        check(cudaEventCreateWithFlags(&lane.sent[b], cudaEventDisableTiming), "cudaEventCreate");
      }
    }
  }
  const std::size_t share = (count + kLanes - 1) / kLanes;
  cudaError_t status[kLanes] = {};
  {
    // jthreads: should starting one fail, those started are joined before the error leaves.
    std::vector<std::jthread> workers;
    workers.reserve(kLanes);
    for (int l = 0; l < kLanes; ++l) {
      const std::size_t begin = std::min(count, static_cast<std::size_t>(l) * share);
      const std::size_t length = std::min(count, begin + share) - begin;
      workers.emplace_back([this, l, begin, length, device, host, stream, &status] {
        double* const chunks[2] = {lanes_[l].chunks[0].data(), lanes_[l].chunks[1].data()};
        status[l] =
            send(chunks, lanes_[l].sent, device_, device + begin, host + begin, length, stream);
      });
    }
  }
  for (const cudaError_t s : status) check(s, "copying the matrix to the device");
}

}  // namespace solvent::dense
