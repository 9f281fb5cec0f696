#pragma once
// The ceilings the MATM floors are measured against: a large copy, bytes read plus bytes
// written per second.

// Device-to-device cudaMemcpy of `bytes`, median of 20 after warm-up (CUDA events);
// 0 when there is no device. The device name goes to `name` (at most 255 chars).
double device_copy_bandwidth(double bytes, char* name);
