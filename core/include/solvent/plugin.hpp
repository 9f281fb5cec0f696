#pragma once
// The plugin descriptor: the one symbol a plugin library exports, a plain `extern "C"`
// function solvent_plugin_descriptor() (no Boost in the SDK's headers), read by the core
// before any other plugin code runs — the pattern of LLVM's pass-plugin info. abi_version is the
// first field and never moves, so the core can refuse a mismatched library before touching anything
// whose layout may differ.
//
// A plugin source file ends with, for example:
//
//   SOLVENT_PLUGIN(solvent::describe_linear_solver<MySolver>(
//       "my-solver", "1.0.0", "one-line summary", &my_schema))
#include <solvent/abi.hpp>
#include <solvent/communicator.hpp>
#include <solvent/integrator.hpp>
#include <solvent/linear_solver.hpp>
#include <solvent/model.hpp>
#include <solvent/parameters.hpp>
#include <solvent/preconditioner.hpp>

#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

namespace spdlog {
class logger;
}

namespace solvent {

enum class PluginKind : std::uint32_t {
  Model = 1,
  Integrator = 2,
  LinearSolver = 3,
  Preconditioner = 4
};

std::string_view to_string(PluginKind k);

// What a plugin object is created with: its resolved parameters, the core's logger
// (spdlog's registry is per shared library, so plugins must not create their own) and the
// run's ranks (a distributed model decides its block when it is made; the same
// communicator as RunContext::comm).
struct PluginContext {
  Parameters params;
  std::shared_ptr<spdlog::logger> log;
  const Communicator* comm = &single_rank();
  // For the model of a run over ranks with [run] balance = "measured": every rank's
  // LinearSolver::measured_speed(), in rank order, by which a model that splits a grid may
  // size the blocks. Empty otherwise (split evenly).
  std::vector<double> rank_speeds{};
  // With rank_speeds: the links between the ranks (measured by the core) and the linear
  // solver's exchanges of one iteration, by which such a model gives a rank whose share is
  // not worth its exchanges no block (weigh_by_speed).
  LinkFit rank_link{};
  IterationExchanges exchanges{};
};

struct PluginDescriptor {
  std::uint32_t abi_version;    // == SOLVENT_PLUGIN_ABI_VERSION at build time
  const char* solvent_version;  // the Solvent release the plugin was built against
  const char* name;
  PluginKind kind;
  const char* version;
  const char* summary;
  // Where it runs: "cpu", "cuda", or "any" for a plugin that runs on either, the choice
  // made per run (and per rank) by its own `device` parameter. The loader refuses others.
  const char* device;
  Schema (*schema)();
  // Exactly one factory, the one of `kind`, is set.
  std::unique_ptr<Model> (*make_model)(const PluginContext&);
  std::unique_ptr<Integrator> (*make_integrator)(const PluginContext&);
  std::unique_ptr<LinearSolver> (*make_linear_solver)(const PluginContext&);
  std::unique_ptr<Preconditioner> (*make_preconditioner)(const PluginContext&);
  // The most ranks the plugin can run on (mpirun -n N): 1 for a plugin that knows nothing
  // of ranks (the default: the core refuses it under N > 1, naming it), 0 for any number.
  std::uint32_t max_ranks;
};

#ifndef SOLVENT_VERSION
#define SOLVENT_VERSION "unknown"
#endif

namespace detail {
template <class T, class Base>
std::unique_ptr<Base> (*factory_for())(const PluginContext&) {
  if constexpr (std::is_base_of_v<Base, T>)
    return [](const PluginContext& c) -> std::unique_ptr<Base> { return std::make_unique<T>(c); };
  else
    return nullptr;
}

template <class T>
PluginDescriptor describe(PluginKind kind, const char* name, const char* version,
                          const char* summary, Schema (*schema)(), const char* device) {
  return {plugin_abi_version,
          SOLVENT_VERSION,
          name,
          kind,
          version,
          summary,
          device,
          schema,
          factory_for<T, Model>(),
          factory_for<T, Integrator>(),
          factory_for<T, LinearSolver>(),
          factory_for<T, Preconditioner>(),
          1};
}
}  // namespace detail

// A descriptor for a plugin that runs on any number of ranks, exchanging what it must
// through RunContext::comm: SOLVENT_PLUGIN(solvent::distributed(solvent::describe_...(...))).
constexpr PluginDescriptor distributed(PluginDescriptor d) {
  d.max_ranks = 0;
  return d;
}

template <class T>
PluginDescriptor describe_model(const char* name, const char* version, const char* summary,
                                Schema (*schema)(), const char* device = "cpu") {
  return detail::describe<T>(PluginKind::Model, name, version, summary, schema, device);
}

template <class T>
PluginDescriptor describe_integrator(const char* name, const char* version, const char* summary,
                                     Schema (*schema)(), const char* device = "cpu") {
  return detail::describe<T>(PluginKind::Integrator, name, version, summary, schema, device);
}

template <class T>
PluginDescriptor describe_linear_solver(const char* name, const char* version, const char* summary,
                                        Schema (*schema)(), const char* device = "cpu") {
  return detail::describe<T>(PluginKind::LinearSolver, name, version, summary, schema, device);
}

template <class T>
PluginDescriptor describe_preconditioner(const char* name, const char* version, const char* summary,
                                         Schema (*schema)(), const char* device = "cpu") {
  return detail::describe<T>(PluginKind::Preconditioner, name, version, summary, schema, device);
}

}  // namespace solvent

// Plugins are built with hidden visibility; the descriptor function alone is exported.
#define SOLVENT_PLUGIN(...)                                                            \
  extern "C" __attribute__((visibility("default"))) const ::solvent::PluginDescriptor* \
  solvent_plugin_descriptor() {                                                        \
    static const ::solvent::PluginDescriptor d = __VA_ARGS__;                          \
    return &d;                                                                         \
  }
