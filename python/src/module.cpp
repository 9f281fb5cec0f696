// solvent._solvent: the framework's embedding API (solvent/plugin_factory.hpp, the run driver,
// the registry) for Python. Plugins are made by the same loader, schemas and checks as
// `solvent run`; nothing of a plugin is re-implemented here. The pure-Python package around
// it (python/solvent/) turns SciPy and NumPy objects into the arrays this module takes and
// the core's errors into one exception class per exit code.
#include "loader/plugin_registry.hpp"
#include "ranks/communicator_world.hpp"
#include "run/interruption.hpp"
#include "run/run_driver.hpp"

#include <solvent/abi.hpp>
#include <solvent/errors.hpp>
#include <solvent/plugin_factory.hpp>
#include <solvent/sparse/row_distribution.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace py = pybind11;

namespace {

using solvent::complex;
// Arrays exactly as the core reads them: C order, the core's scalar and index types. The
// Python layer converts (and says where that copies) before calling in.
template <class T>
using Array = py::array_t<T, py::array::c_style>;

// What keeps borrowed NumPy arrays alive. The last copy of an operator may be let go on any
// thread and with the GIL released (a solver drops its previous operator in setup), so the
// reference is dropped with the GIL taken.
std::shared_ptr<const void> keep_alive(py::object arrays) {
  return {new py::object(std::move(arrays)), [](py::object* held) {
            // After the interpreter is gone its arrays are too: nothing left to release.
            if (!Py_IsInitialized()) return;
            py::gil_scoped_acquire gil;
            delete held;
          }};
}

template <class T>
solvent::MatrixArray<T> borrow(const Array<T>& a, const std::shared_ptr<const void>& keeper) {
  return solvent::MatrixArray<T>::borrow({a.data(), std::size_t(a.size())}, keeper);
}

// One Python value of a keyword argument as a plugin setting; anything else is named.
solvent::ParamValue to_param(const std::string& key, const py::handle& v) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>();
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (py::hasattr(v, "__index__")) return v.cast<std::int64_t>();
  if (py::isinstance<py::float_>(v) || py::hasattr(v, "__float__")) return v.cast<double>();
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    std::vector<py::handle> items;
    for (py::handle e : v) items.push_back(e);
    const auto all = [&](auto pred) { return std::all_of(items.begin(), items.end(), pred); };
    const auto integer = [](py::handle e) {
      return !py::isinstance<py::bool_>(e) && py::hasattr(e, "__index__");
    };
    if (all([](py::handle e) { return py::isinstance<py::str>(e); }))
      return v.cast<std::vector<std::string>>();
    if (!items.empty() && all(integer)) return v.cast<std::vector<std::int64_t>>();
    if (all([&](py::handle e) { return integer(e) || py::isinstance<py::float_>(e); }))
      return v.cast<std::vector<double>>();
  }
  throw solvent::ConfigError({fmt::format(
      "{}: a {} cannot be a setting (a bool, int, float, str, or a list of one of them)", key,
      py::str(py::type::of(v).attr("__name__")).cast<std::string>())});
}

solvent::plugins::Settings to_settings(const py::dict& d) {
  solvent::plugins::Settings s;
  for (const auto& [k, v] : d) {
    const auto key = py::str(k).cast<std::string>();
    s.emplace(key, to_param(key, v));
  }
  return s;
}

// The ranks of an mpi4py communicator (its Fortran handle, Comm.py2f()); none: one rank.
std::shared_ptr<const solvent::Communicator> ranks_of(const std::optional<std::int64_t>& handle) {
  if (!handle) return {};
  return solvent::communicator_of(*handle);
}

// A linear solver made by name, with its preconditioner, the ranks it solves over, and the
// operator it was last set up with (kept alive: the solver holds it by pointer, and the
// true residual is computed on it after every solve).
class Solver {
 public:
  Solver(const std::string& name, const py::dict& settings, const py::dict& core,
         const std::optional<std::string>& pc_name, const py::dict& pc_settings,
         const std::optional<std::int64_t>& comm)
      : name_(name), comm_(ranks_of(comm)) {
    const auto own = to_settings(settings);
    const solvent::Communicator& ranks = comm_ ? *comm_ : solvent::single_rank();
    solver_ = solvent::plugins::make_linear_solver(name, own, ranks);
    // The tolerance the solver stops at, where it has one: given, else its schema's default.
    for (const auto& spec : solvent::plugins::schema_of(name, solvent::PluginKind::LinearSolver))
      if (spec.name == "tolerance") {
        const auto given = own.find("tolerance");
        const auto& value = given == own.end() ? spec.default_value : given->second;
        if (const auto* d = std::get_if<double>(&value)) tolerance_ = *d;
        if (const auto* i = std::get_if<std::int64_t>(&value)) tolerance_ = double(*i);
      }
    auto policy = solvent::plugins::solver_policy(to_settings(core));
    policy.on_conversion = [this](const std::string& what) { conversion_ = what; };
    solver_->set_policy(std::move(policy));
    if (pc_name) {
      if (!solver_->uses_preconditioner())
        throw solvent::ConfigError({fmt::format(
            "linear solver '{}' applies no preconditioner; preconditioner '{}' would be ignored",
            name, *pc_name)});
      pc_ = solvent::plugins::make_preconditioner(*pc_name, to_settings(pc_settings), ranks);
      solver_->set_preconditioner(pc_);
    }
  }

  // A's three arrays are read in place (borrowed, not copied): the operator keeps the NumPy
  // arrays alive for as long as the solver, or any copy it made of the operator, holds it.
  template <class T>
  void setup_csr(std::size_t rows, std::size_t cols, const Array<std::int32_t>& row_ptr,
                 const Array<std::int32_t>& col_idx, const Array<T>& values) {
    const auto keeper = keep_alive(py::make_tuple(row_ptr, col_idx, values));
    solvent::CsrMatrix<T> a;
    a.rows = rows;
    a.cols = cols;
    a.row_ptr = borrow(row_ptr, keeper);
    a.col_idx = borrow(col_idx, keeper);
    a.values = borrow(values, keeper);
    setup(std::make_shared<const solvent::Operator>(std::move(a)));
  }

  // This rank's rows of a matrix of `global_rows` rows spread over the solver's ranks, as
  // the core's row distribution takes them: each rank a contiguous run of rows, rank 0's
  // first, columns numbered globally. The core renumbers them (own unknowns, then ghosts),
  // so the arrays are copied whatever their layout.
  template <class T>
  void setup_rows(std::size_t global_rows, const Array<std::int32_t>& row_ptr,
                  const Array<std::int64_t>& col_idx, const Array<T>& values) {
    if (!comm_) throw solvent::SolverError(fmt::format(
        "linear solver '{}': rows of a distributed matrix, but no communicator", name_));
    const std::size_t mine = std::size_t(row_ptr.size()) - 1;
    std::vector<int> owner;
    std::shared_ptr<const solvent::Operator> op;
    {
      py::gil_scoped_release unlocked;
      const auto counts = comm_->gather_all(std::to_string(mine));
      for (std::size_t r = 0; r < counts.size(); ++r)
        owner.insert(owner.end(), std::stoull(counts[r]), int(r));
      // Every rank holds every count, so every rank refuses together.
      if (owner.size() != global_rows)
        throw solvent::SolverError(fmt::format(
            "the ranks hold {} rows together, but A has {} (each rank passes its own rows: "
            "solvent.row_range gives them)", owner.size(), global_rows));
      op = std::make_shared<const solvent::Operator>(solvent::distributed_rows<T>(
          global_rows, owner, {row_ptr.data(), mine + 1},
          {col_idx.data(), std::size_t(col_idx.size())},
          {values.data(), std::size_t(values.size())}, *comm_));
    }
    setup(std::move(op));
  }

  template <class T>
  void setup_dense(const Array<T>& values) {
    if (values.ndim() != 2) throw solvent::SolverError("a dense operator must be 2-dimensional");
    solvent::DenseMatrix<T> a;
    a.rows = std::size_t(values.shape(0));
    a.cols = std::size_t(values.shape(1));
    a.values.assign(values.data(), values.data() + values.size());
    setup(std::make_shared<const solvent::Operator>(std::move(a)));
  }

  // x holds the initial guess and receives the solution: the solver writes into the NumPy
  // array's memory (no copy in or out).
  template <class T>
  py::dict solve(const Array<T>& b, Array<T>& x) {
    if (!op_) throw solvent::SolverError(fmt::format("linear solver '{}': solve before setup", name_));
    solvent::SolveStats stats;
    double truth = 0.0;
    double seconds = 0.0;
    {
      const std::span<const T> bs(b.data(), std::size_t(b.size()));
      const std::span<T> xs(x.mutable_data(), std::size_t(x.size()));
      py::gil_scoped_release unlocked;
      const auto start = std::chrono::steady_clock::now();
      stats = solver_->solve(bs, xs);
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      // What the solver reported is its stopping rule's; this is ||b - A x|| / ||b|| of the
      // x it returned, on the operator as given, computed by the core.
      truth = solvent::relative_residual(*op_, std::span<const T>(bs), std::span<const T>(xs));
    }
    py::dict d;
    d["iterations"] = stats.iterations;
    d["residual"] = stats.residual;
    d["true_residual"] = truth;
    d["converged"] = stats.converged;
    d["status"] = stats.status;
    d["residual_history"] = py::array_t<double>(py::ssize_t(stats.residual_history.size()),
                                                stats.residual_history.data());
    d["seconds"] = seconds;
    d["conversion"] = conversion_;
    return d;
  }

  // Where the set-up operator's arrays lie (row pointers, column indices, values of a CSR
  // operator; none for another storage), so the package can tell whether they are the
  // caller's own.
  std::vector<std::uintptr_t> operator_arrays() const {
    const auto* csr_real = op_ ? std::get_if<solvent::CsrMatrix<double>>(op_.get()) : nullptr;
    const auto* csr_complex = op_ ? std::get_if<solvent::CsrMatrix<complex>>(op_.get()) : nullptr;
    const auto where = [](const auto& a) -> std::vector<std::uintptr_t> {
      return {std::uintptr_t(a.row_ptr.data()), std::uintptr_t(a.col_idx.data()),
              std::uintptr_t(a.values.data())};
    };
    if (csr_real) return where(*csr_real);
    if (csr_complex) return where(*csr_complex);
    return {};
  }

  const std::string& name() const { return name_; }
  std::optional<double> tolerance() const { return tolerance_; }
  bool uses_preconditioner() const { return solver_->uses_preconditioner(); }
  std::vector<std::string> forms() const {
    std::vector<std::string> out;
    for (const auto& f : solver_->forms())
      out.push_back(fmt::format("{} {}", solvent::to_string(f.kind),
                                f.scalar == solvent::ScalarKind::Real ? "real" : "complex"));
    return out;
  }
  std::map<std::string, std::string> facts() const { return to_map(solver_->facts()); }

 private:
  template <class Facts>
  static std::map<std::string, std::string> to_map(const Facts& facts) {
    std::map<std::string, std::string> m;
    for (const auto& [k, v] : facts) m[k] = v;
    return m;
  }

  void setup(std::shared_ptr<const solvent::Operator> op) {
    conversion_.clear();
    op_.reset();
    {
      py::gil_scoped_release unlocked;
      solver_->setup(op);
    }
    op_ = std::move(op);
  }

  std::string name_;
  // Declared before what uses it: the solver, the preconditioner and a distributed
  // operator hold it by reference.
  std::shared_ptr<const solvent::Communicator> comm_;
  std::shared_ptr<solvent::LinearSolver> solver_;
  std::shared_ptr<solvent::Preconditioner> pc_;
  std::shared_ptr<const solvent::Operator> op_;
  std::string conversion_;
  std::optional<double> tolerance_;
};

py::object param_to_py(const solvent::ParamValue& v) {
  return std::visit([](const auto& x) -> py::object { return py::cast(x); }, v);
}

// `solvent describe NAME` as a dict: what the command prints, field by field.
py::dict describe(const std::string& name) {
  solvent::PluginRegistry registry(solvent::PluginRegistry::default_search_path());
  std::vector<std::string> all;
  for (const auto& p : registry.plugins()) all.push_back(p.name);
  const auto found = std::find_if(registry.plugins().begin(), registry.plugins().end(),
                                  [&](const auto& p) { return p.name == name; });
  if (found == registry.plugins().end()) {
    const auto near = solvent::nearest(name, all);
    throw solvent::PluginError(fmt::format(
        "no plugin named '{}'{} (available: {})", name,
        near.empty() ? "" : fmt::format("; did you mean '{}'?", near), fmt::join(all, ", ")));
  }
  const auto& lib = registry.find(found->name, found->kind);
  const auto* d = lib.descriptor;
  py::list params;
  for (const auto& s : d->schema()) {
    py::dict p;
    p["name"] = s.name;
    p["type"] = std::string(solvent::to_string(s.type));
    p["default"] = param_to_py(s.default_value);
    p["doc"] = s.doc;
    p["unit"] = s.unit;
    p["min"] = s.min ? py::cast(*s.min) : py::none();
    p["max"] = s.max ? py::cast(*s.max) : py::none();
    p["min_exclusive"] = s.min_exclusive;
    p["max_exclusive"] = s.max_exclusive;
    p["choices"] = s.choices;
    params.append(p);
  }
  py::dict out;
  out["name"] = std::string(d->name);
  out["version"] = std::string(d->version);
  out["kind"] = std::string(solvent::to_string(d->kind));
  out["device"] = std::string(d->device);
  out["summary"] = std::string(d->summary);
  out["library"] = lib.path.string();
  out["max_ranks"] = d->max_ranks;
  out["parameters"] = params;
  return out;
}

// `solvent plugins`: what was found, and why any library on the path was skipped.
py::dict list_plugins(const std::vector<std::filesystem::path>& first) {
  auto dirs = first;
  for (auto& d : solvent::PluginRegistry::default_search_path()) dirs.push_back(std::move(d));
  const solvent::PluginRegistry registry(dirs);
  py::list found;
  for (const auto& p : registry.plugins()) {
    py::dict e;
    e["name"] = p.name;
    e["kind"] = std::string(solvent::to_string(p.kind));
    e["version"] = p.version;
    e["device"] = p.device;
    e["summary"] = p.summary;
    e["library"] = p.path.string();
    e["max_ranks"] = p.max_ranks;
    found.append(e);
  }
  py::list skipped;
  for (const auto& s : registry.skipped()) skipped.append(s.reason);
  py::dict out;
  std::vector<std::string> search_path;
  for (const auto& d : registry.search_path()) search_path.push_back(d.string());
  out["search_path"] = search_path;
  out["plugins"] = found;
  out["skipped"] = skipped;
  return out;
}

// One run, as `solvent run` makes it: `config` a file, or TOML text read as if it were that
// file (its relative paths resolve from the file's folder).
py::dict run(const std::filesystem::path& config, const std::optional<std::string>& text,
             const std::vector<std::string>& overrides,
             const std::optional<std::filesystem::path>& output, bool overwrite, bool progress,
             const std::optional<std::int64_t>& comm) {
  const auto ranks = ranks_of(comm);
  solvent::RunOptions opt;
  opt.comm = ranks.get();
  opt.config = config;
  opt.overrides = overrides;
  opt.output_dir = output;
  opt.overwrite = overwrite;
  opt.progress = progress ? solvent::ProgressMode::Always : solvent::ProgressMode::Never;
  opt.argv = {"python3", "solvent.run", config.string()};
  for (const auto& o : overrides) opt.argv.push_back("--set=" + o);
  if (text)
    opt.document = [&] { return solvent::parse_config_document(*text, config, overrides); };
  solvent::RunSummary s;
  {
    py::gil_scoped_release unlocked;
    s = solvent::run_experiment(opt);
  }
  py::dict out;
  out["output_dir"] = s.output_dir.string();
  out["model"] = s.model;
  out["integrator"] = s.integrator;
  out["linear_solver"] = s.linear_solver;
  out["steps"] = s.steps;
  out["t"] = s.t;
  out["wall_seconds"] = s.wall_seconds;
  return out;
}

// The core's errors as the exception classes of solvent/errors.py, chosen by exit code as
// the command chooses its exit status; an interrupted run is Python's KeyboardInterrupt.
void raise_error(const solvent::Error& e) {
  const int code = e.exit_code();
  if (dynamic_cast<const solvent::Interrupted*>(&e) != nullptr) {
    PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    return;
  }
  auto errors = py::module_::import("solvent.errors");
  const py::object cls = errors.attr("class_for_exit_code")(code);
  std::vector<std::string> problems;
  if (const auto* c = dynamic_cast<const solvent::ConfigError*>(&e)) problems = c->problems();
  else if (code == 2) problems = {e.what()};
  const py::object instance = cls(e.what(), py::arg("exit_code") = code,
                                  py::arg("problems") = problems);
  PyErr_SetObject(cls.ptr(), instance.ptr());
}

}  // namespace

PYBIND11_MODULE(_solvent, m) {
  m.doc() = "Solvent's framework, as the solvent package uses it";
  m.attr("version") = solvent::version_string();
  m.attr("plugin_abi") = solvent::plugin_abi_version;

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const solvent::Error& e) {
      raise_error(e);
    }
  });

  py::class_<Solver>(m, "Solver")
      .def(py::init<const std::string&, const py::dict&, const py::dict&,
                    const std::optional<std::string>&, const py::dict&,
                    const std::optional<std::int64_t>&>(),
           py::arg("name"), py::arg("settings"), py::arg("core"), py::arg("preconditioner"),
           py::arg("preconditioner_settings"), py::arg("comm"))
      // No conversion of A's arrays: the package hands them in the core's types, and they
      // are borrowed, so a silent copy here would defeat the point.
      .def("setup_csr", &Solver::setup_csr<double>, py::arg("rows"), py::arg("cols"),
           py::arg("row_ptr").noconvert(), py::arg("col_idx").noconvert(),
           py::arg("values").noconvert())
      .def("setup_csr", &Solver::setup_csr<complex>, py::arg("rows"), py::arg("cols"),
           py::arg("row_ptr").noconvert(), py::arg("col_idx").noconvert(),
           py::arg("values").noconvert())
      .def("setup_rows", &Solver::setup_rows<double>)
      .def("setup_rows", &Solver::setup_rows<complex>)
      .def("setup_dense", &Solver::setup_dense<double>)
      .def("setup_dense", &Solver::setup_dense<complex>)
      // No conversion of x: the solution is written into the caller's array itself.
      .def("solve", &Solver::solve<double>, py::arg("b"), py::arg("x").noconvert())
      .def("solve", &Solver::solve<complex>, py::arg("b"), py::arg("x").noconvert())
      .def_property_readonly("operator_arrays", &Solver::operator_arrays)
      .def_property_readonly("name", &Solver::name)
      .def_property_readonly("tolerance", &Solver::tolerance)
      .def_property_readonly("uses_preconditioner", &Solver::uses_preconditioner)
      .def_property_readonly("forms", &Solver::forms)
      .def_property_readonly("facts", &Solver::facts);

  // MPI, where a run under mpirun started it, ends with the interpreter (as with main).
  py::module_::import("atexit").attr("register")(py::cpp_function([] { solvent::finish_world(); }));

  // The command beside this build or install of the library (bin/ above lib/), which runs a
  // sweep's members as its own processes.
  m.attr("command") = solvent::solvent_root() / "bin" / "solvent";

  m.def("policy_keys", &solvent::plugins::solver_policy_keys);
  m.def("describe", &describe, py::arg("name"));
  m.def("plugins", &list_plugins, py::arg("path"));
  m.def("run", &run, py::arg("config"), py::arg("text"), py::arg("overrides"), py::arg("output"),
        py::arg("overwrite"), py::arg("progress"), py::arg("comm"));
}
