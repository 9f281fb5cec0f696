// Plugin creation for tests: the same search path, schema validation and defaults as
// `solvent run`, with settings given in code instead of a TOML file.
#include <solvent/testkit.hpp>

#include "config/config_validation.hpp"
#include "log/logging.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace solvent::testkit {

namespace {

PluginRegistry& registry() {
  static PluginRegistry r(PluginRegistry::default_search_path());
  return r;
}

toml::table to_table(const Settings& s) {
  toml::table t;
  for (const auto& [k, v] : s) {
    std::visit(
        [&](const auto& x) {
          using X = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<X, bool> || std::is_same_v<X, std::int64_t> ||
                        std::is_same_v<X, double> || std::is_same_v<X, std::string>) {
            t.insert_or_assign(k, x);
          } else {
            toml::array a;
            for (const auto& e : x) a.push_back(e);
            t.insert_or_assign(k, std::move(a));
          }
        },
        v);
  }
  return t;
}

const PluginLibrary& resolve(const std::string& name, PluginKind kind, const Settings& s,
                             PluginContext& ctx) {
  const auto& lib = registry().find(name, kind);
  std::vector<std::string> problems;
  // Dotted keys ("parameters.dC") are written as TOML would nest them.
  toml::table nested;
  for (const auto& [k, v] : to_table(s)) {
    std::string key(k.str());
    toml::table* t = &nested;
    for (auto dot = key.find('.'); dot != std::string::npos; dot = key.find('.')) {
      auto head = key.substr(0, dot);
      if (!t->contains(head)) t->insert(head, toml::table{});
      t = t->get(head)->as_table();
      key = key.substr(dot + 1);
    }
    t->insert_or_assign(key, v);
  }
  ctx.params = check_section(nested, lib.descriptor->schema(),
                             fmt::format("{} '{}'", to_string(kind), name), problems);
  if (!problems.empty()) throw ConfigError(problems);
  ctx.log = core_logger();
  return lib;
}

}  // namespace

std::shared_ptr<LinearSolver> make_linear_solver(const std::string& name, const Settings& s,
    const Communicator& comm) {
  PluginContext ctx;
  ctx.comm = &comm;
  const auto& lib = resolve(name, PluginKind::LinearSolver, s, ctx);
  return create_linear_solver(lib, ctx);
}

std::shared_ptr<Preconditioner> make_preconditioner(const std::string& name, const Settings& s,
    const Communicator& comm) {
  PluginContext ctx;
  ctx.comm = &comm;
  const auto& lib = resolve(name, PluginKind::Preconditioner, s, ctx);
  return create_preconditioner(lib, ctx);
}

std::shared_ptr<Model> make_model(const std::string& name, const Settings& s,
    const Communicator& comm) {
  PluginContext ctx;
  ctx.comm = &comm;
  const auto& lib = resolve(name, PluginKind::Model, s, ctx);
  return create_model(lib, ctx);
}

std::shared_ptr<Integrator> make_integrator(const std::string& name, const Settings& s,
    const Communicator& comm) {
  PluginContext ctx;
  ctx.comm = &comm;
  const auto& lib = resolve(name, PluginKind::Integrator, s, ctx);
  return create_integrator(lib, ctx);
}

std::vector<std::string> installed(PluginKind kind) { return registry().names(kind); }

bool runs_distributed(const std::string& name, PluginKind kind) {
  return registry().find(name, kind).descriptor->max_ranks == 0;
}

Schema schema_of(const std::string& name, PluginKind kind) {
  return registry().find(name, kind).descriptor->schema();
}

std::string device_of(const std::string& name, PluginKind kind) {
  return registry().find(name, kind).descriptor->device;
}

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
