#pragma once
// The short calibration behind a MATM solver's measured_speed(), by which a run balanced by
// measured speed ([run] balance = "measured") sizes each rank's block: every backend times
// the work of one iteration's correction (three triangular sweeps and a product) on a
// uniform grid that keeps it as busy as a run's block would, and its speed follows from those times by the rule of Sukhinov
// et al.: the 95th percentile of the repeated times, so that a rank is credited with the
// speed it keeps, not its best moment.
#include <solvent/stencil7.hpp>
#include <solvent_matm/iteration.hpp>

#include <cstddef>
#include <vector>

namespace solvent::matm {

// An n1 x n2 x n3 seven-point Poisson operator (c0 = 6, couplings 1): diagonally dominant,
// self-adjoint, every node active. The CPU backends time 128 x 128 x 64, whose 64 MB of arrays
// stream from memory as a run's block does (a grid inside the caches credits a core with
// more than it keeps); a GPU sweep is bound by the latency of its chain of about n2 + n3
// steps, so a small grid leaves most of the device idle and credits it with a fraction of
// its speed (a quarter on an H100 at 64 x 64 x 32): the GPU backend times
// calibration_gpu_nodes per axis.
Stencil7<double> calibration_stencil(std::size_t n1 = 128, std::size_t n2 = 128,
                                     std::size_t n3 = 64);
inline constexpr std::size_t calibration_gpu_nodes = 192;

// Repetitions a backend times.
inline constexpr int calibration_repeats = 21;

// nodes / (95th percentile of `seconds`).
double speed_from_times(std::size_t nodes, std::vector<double> seconds);

// The calibration itself, the same for every backend: a residual, then calibration_repeats
// corrections (w = 1) timed one by one on the host clock, and speed_from_times over
// `nodes`. correction() returns once its inner products are on the host, which a device
// backend copies from the device after its last kernel: each time spans the device's work.
double time_corrections(MatmBackend& backend, std::size_t nodes);

}  // namespace solvent::matm
