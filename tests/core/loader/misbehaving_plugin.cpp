// A linear-solver plugin that misbehaves in the one way MISBEHAVIOUR names when it is built:
// while it is loaded (abort, segfault, hang, throw, exit from a static initialiser), in its
// schema, in its constructor, or in its descriptor (a device no Solvent knows). Listing the plugin
// path must survive each of them.
#include <solvent/solvent.hpp>

#include <csignal>
#include <cstdlib>

#include <unistd.h>

#define abort_on_load 1
#define segfault_on_load 2
#define hang_on_load 3
#define throw_on_load 4
#define exit_on_load 5
#define throwing_schema 6
#define throwing_constructor 7
#define unknown_device 8

namespace {

#if MISBEHAVIOUR <= exit_on_load
struct OnLoad {
  OnLoad() {
#if MISBEHAVIOUR == abort_on_load
    std::abort();
#elif MISBEHAVIOUR == segfault_on_load
    std::raise(SIGSEGV);
#elif MISBEHAVIOUR == hang_on_load
    for (;;) ::pause();
#elif MISBEHAVIOUR == throw_on_load
    throw 42;
#else
    std::exit(3);
#endif
  }
} on_load;
#endif

class Solver : public solvent::LinearSolver {
 public:
  explicit Solver(const solvent::PluginContext&) {
#if MISBEHAVIOUR == throwing_constructor
    throw 42;
#endif
  }
  std::vector<solvent::OperatorForm> forms() const override {
    return {{solvent::OperatorKind::Dense, solvent::ScalarKind::Real}};
  }

 protected:
  void setup_impl(std::shared_ptr<const solvent::Operator>) override {}
};

solvent::Schema schema() {
#if MISBEHAVIOUR == throwing_schema
  throw 42;
#endif
  return {};
}

}  // namespace

#if MISBEHAVIOUR == unknown_device
#define FIXTURE_DEVICE "gpu"
#else
#define FIXTURE_DEVICE "cpu"
#endif

SOLVENT_PLUGIN(solvent::describe_linear_solver<Solver>(FIXTURE_NAME, "1.0.0",
                                                       "misbehaves: " FIXTURE_NAME, &schema,
                                                       FIXTURE_DEVICE))
