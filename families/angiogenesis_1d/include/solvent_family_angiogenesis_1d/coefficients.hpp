#pragma once
// The physical coefficients of the 1D model ([model.parameters], docs/models/angiogenesis-1d.md).
// Every member is a double, so the block has no padding and copies to a device as it is.
namespace solvent::angiogenesis_1d {

struct Coefficients {
  double dC, dP, dI, k1, k2, k3, k4, k5, k6, a1, a2, a3, a4, eps0;
};

}  // namespace solvent::angiogenesis_1d
