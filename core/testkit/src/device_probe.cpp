// Whether a device plugin finds its device: the smallest set-up it accepts, DeviceUnavailable
// caught.
#include <solvent/testkit.hpp>

#include <memory>
#include <vector>

namespace solvent::testkit {

namespace {

// The smallest operator of each storage, real: setting one up is what makes a device plugin
// probe for its device.
std::vector<std::shared_ptr<const Operator>> smallest_operators() {
  std::vector<std::shared_ptr<const Operator>> ones;
  DenseMatrix<double> dense(1, 1);
  dense(0, 0) = 1.0;
  ones.push_back(std::make_shared<const Operator>(dense));
  CsrMatrix<double> csr;
  csr.rows = csr.cols = 1;
  csr.row_ptr = {0, 1};
  csr.col_idx = {0};
  csr.values = {1.0};
  ones.push_back(std::make_shared<const Operator>(csr));
  BandedMatrix<double> band(1, 0, 0);
  band.at(0, 0) = 1.0;
  ones.push_back(std::make_shared<const Operator>(band));
  // 3 x 3 x 3: the smallest grid a seven-point solver accepts (MATM refuses fewer points).
  Stencil7<double> st(3, 3, 3);
  for (auto& v : st.c[0]) v = 1.0;
  ones.push_back(std::make_shared<const Operator>(st));
  return ones;
}

// Sets up `object` with the first of smallest_operators() it takes.
template <class Object, class Takes>
bool set_up_smallest(Object& object, Takes takes) {
  for (const auto& op : smallest_operators()) {
    if (!takes(form_of(*op))) continue;
    try {
      object.setup(op);
    } catch (const DeviceUnavailable&) {
      return false;
    }
    return true;
  }
  return true;
}

}  // namespace

bool device_available(LinearSolver& solver) {
  return set_up_smallest(solver, [&](OperatorForm f) { return solver.accepts(f); });
}

bool device_available(Preconditioner& pc) {
  const auto forms = pc.forms();
  return set_up_smallest(
      pc, [&](OperatorForm f) { return std::find(forms.begin(), forms.end(), f) != forms.end(); });
}

}  // namespace solvent::testkit
