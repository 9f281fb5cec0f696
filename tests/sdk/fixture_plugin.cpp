// A linear-solver plugin whose descriptor the loader tests bend: built several times with
// a different FIXTURE_NAME, FIXTURE_SUMMARY, FIXTURE_ABI_VERSION or FIXTURE_SOLVENT_VERSION,
// it plays a library of another ABI, one built against a newer Solvent, and two libraries
// that claim the same name.
#include <solvent/solvent.hpp>

namespace {

class RefusingSolver : public solvent::LinearSolver {
 public:
  explicit RefusingSolver(const solvent::PluginContext&) {}
  // It declares a form, so that configurations naming it pass validation, and then refuses.
  std::vector<solvent::OperatorForm> forms() const override {
    return {{solvent::OperatorKind::Dense, solvent::ScalarKind::Real}};
  }

 protected:
  void setup_impl(std::shared_ptr<const solvent::Operator>) override {
    throw solvent::UnsupportedOperator(FIXTURE_NAME " is a loader-test fixture and solves nothing");
  }
};

solvent::Schema schema() { return {}; }

solvent::PluginDescriptor describe() {
  auto d = solvent::describe_linear_solver<RefusingSolver>(FIXTURE_NAME, "1.0.0", FIXTURE_SUMMARY,
                                                           &schema);
  d.abi_version = FIXTURE_ABI_VERSION;
  d.solvent_version = FIXTURE_SOLVENT_VERSION;
  return d;
}

}  // namespace

SOLVENT_PLUGIN(describe())
