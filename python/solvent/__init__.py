"""Solvent from Python: every plugin the `solvent` command finds (linear solvers,
preconditioners, models, integrators; third-party ones on SOLVENT_PLUGIN_PATH), made by the
same loader with the same parameter checks, with NumPy arrays and SciPy sparse matrices in
and out.

    import scipy.sparse, numpy, solvent
    A = scipy.sparse.random(...).tocsr(); b = numpy.ones(A.shape[0])
    x, info = solvent.LinearSolver("bicgstab", preconditioner="ilu0", tolerance=1e-10).solve(A, b)
    result = solvent.run("config/matm-poisson.toml", set={"model.n": 32}, output="out/p32")

SOLVENT_PLUGIN_PATH is read when the first plugin is made: set it before that."""

import builtins
import os
import subprocess
import tomllib

import numpy as np

from . import _solvent
from .errors import (ConfigError, DeviceUnavailableError, InputError, NotConvergedError,
                     PluginError, SolventError, SolverError, class_for_exit_code)
from .results import Result, open  # noqa: A004 (solvent.open mirrors `solvent status DIR`)

__version__ = _solvent.version
__all__ = ["LinearSolver", "SolveInfo", "run", "open", "Result", "plugins", "describe", "row_range",
           "SolventError", "ConfigError", "PluginError", "InputError", "SolverError",
           "NotConvergedError", "DeviceUnavailableError"]

# A solver that reports convergence is trusted up to this factor of its own tolerance when the
# true residual ||b - A x|| / ||b|| is recomputed (the conformance kit's allowance); one without
# a `tolerance` key (a direct solver) must reach DIRECT_RESIDUAL_LIMIT.
TOLERANCE_FACTOR = 10.0
DIRECT_RESIDUAL_LIMIT = 1e-8


class SolveInfo:
    """What one solve reported: `iterations` (1 for a direct solve), `residual` (the
    solver's stopping rule's), `true_residual` (||b - A x|| / ||b|| of the returned x,
    recomputed by the core), `converged`, `status`, `residual_history` (a NumPy array, entry
    k after k iterations), `seconds` (the solve only), `conversion` (what the core converted
    A to for this solver, "" when A was used as given), `borrowed` (True when the solver
    read A's own arrays in place, with no host copy of them: see LinearSolver)."""

    __slots__ = ("iterations", "residual", "true_residual", "converged", "status",
                 "residual_history", "seconds", "conversion", "borrowed")

    def __init__(self, **fields):
        for k in self.__slots__:
            setattr(self, k, fields[k])

    def __repr__(self):
        return (f"SolveInfo(converged={self.converged}, status={self.status!r}, "
                f"iterations={self.iterations}, true_residual={self.true_residual:.3g})")


def _handle(comm):
    # An mpi4py communicator as the core takes it: its Fortran handle, which names the same
    # communicator in the MPI library that both load.
    if comm is None:
        return None
    if not hasattr(comm, "py2f"):
        raise ConfigError(f"comm: an mpi4py communicator (mpi4py.MPI.Comm), not a "
                          f"{type(comm).__name__}")
    return comm.py2f()


def row_range(n, comm):
    """The rows of an n-row matrix that this rank of `comm` passes to a distributed
    LinearSolver.solve: range(first, last), contiguous, rank 0's first, the first n % size
    ranks one row more (any contiguous split in rank order is accepted)."""
    size, rank = comm.Get_size(), comm.Get_rank()
    base, extra = divmod(n, size)
    first = rank * base + min(rank, extra)
    return range(first, first + base + (rank < extra))


def _scalar_type(dtype):
    if np.issubdtype(dtype, np.complexfloating):
        return np.complex128
    if np.issubdtype(dtype, np.number) or dtype == np.bool_:
        return np.float64
    raise SolverError(f"a matrix of dtype {dtype} cannot be solved (real or complex numbers)")


class LinearSolver:
    """A registered linear solver by name, with `parameters` checked against its schema as
    the TOML path checks them (an unknown key raises ConfigError naming it and the valid
    keys). The core's own keys of [linear_solver] (max_conversion_mib, verify_residual) are
    accepted too. `preconditioner`: a name, or a dict with "type" and its parameters, as a
    [preconditioner] section. `comm`: an mpi4py communicator to solve over (every rank of
    it calls solve together with its own rows, see solve); None: this process alone.

    solve(A, b) takes a scipy.sparse matrix (CSR used as given; CSC, COO and the others are
    converted to CSR by SciPy) or a dense 2-D NumPy array, real or complex, and returns
    (x, SolveInfo). Over a communicator of several ranks each rank passes its own rows: A
    of shape (rows of this rank, n), b and x the same rows (row_range gives an even split);
    the solution returned is this rank's rows of x.

    Copies: a canonical CSR A of float64 or complex128 with int32 indices is not copied:
    the core reads its three arrays in place (info.borrowed) and holds them until the next
    setup. Any other A is converted once (CSC, COO and the others to CSR by SciPy, other
    dtypes to float64 or complex128, int64 indices to int32, a non-canonical CSR summed and
    sorted, a dense A copied into the core's dense matrix); a distributed A's columns are
    renumbered by the core; a CUDA solver copies A to the device. b is read in place when it
    is C-contiguous of A's scalar type; x is a new array the solver writes into directly.
    The GIL is released while the core sets up and solves, so other Python threads run
    meanwhile.

    A solve that did not converge, or whose recomputed residual contradicts a claimed
    convergence, raises NotConvergedError (carrying x and info) unless
    raise_on_failure=False, in which case info.converged says so."""

    def __init__(self, type, preconditioner=None, comm=None,  # noqa: A002 (TOML's key)
                 **parameters):
        policy_keys = set(_solvent.policy_keys())
        core = {k: v for k, v in parameters.items() if k in policy_keys}
        own = {k: v for k, v in parameters.items() if k not in policy_keys}
        pc_name, pc_settings = None, {}
        if isinstance(preconditioner, str):
            pc_name = preconditioner
        elif isinstance(preconditioner, dict):
            pc_settings = dict(preconditioner)
            pc_name = pc_settings.pop("type", None)
            if not isinstance(pc_name, str):
                raise ConfigError("preconditioner: a dict needs a string 'type' (its plugin)")
        elif preconditioner is not None:
            raise ConfigError("preconditioner: a plugin name or a dict with 'type'")
        if pc_name == "none":
            pc_name = None
        self.type = type
        self.preconditioner = pc_name
        self.parameters = dict(parameters)
        handle = _handle(comm)
        self.comm = comm
        self._distributed = comm is not None and comm.Get_size() > 1
        self._solver = _solvent.Solver(type, own, core, pc_name, pc_settings, handle)
        tolerance = self._solver.tolerance
        self._residual_limit = (TOLERANCE_FACTOR * tolerance if tolerance is not None
                                else DIRECT_RESIDUAL_LIMIT)

    @property
    def forms(self):
        """The storages and scalars the solver works on, most preferred first."""
        return self._solver.forms

    def __repr__(self):
        pc = f", preconditioner={self.preconditioner!r}" if self.preconditioner else ""
        return f"LinearSolver({self.type!r}{pc})"

    def _setup(self, A, scalar):
        try:
            import scipy.sparse as sp
        except ImportError:
            sp = None
        if self._distributed:
            if sp is None:
                raise SolverError("a distributed solve takes its rows as scipy.sparse (SciPy "
                                  "is not installed)")
            A = sp.csr_matrix(A)
            if not A.has_canonical_format:
                A = A.copy()
                A.sum_duplicates()
            if max(A.nnz, A.shape[1]) >= 2**31:
                raise SolverError(f"{A.shape[1]} columns with {A.nnz} non-zeros on this rank: "
                                  "the core's CSR has 32-bit indices")
            self._solver.setup_rows(A.shape[1], np.ascontiguousarray(A.indptr, dtype=np.int32),
                                    np.ascontiguousarray(A.indices, dtype=np.int64),
                                    np.ascontiguousarray(A.data, dtype=scalar))
            return False
        if sp is not None and sp.issparse(A):
            given = A
            A = A.tocsr()  # a CSR A itself, not a copy
            if not A.has_canonical_format:  # duplicates summed, columns sorted in each row
                A = A.copy()
                A.sum_duplicates()
            n, m = A.shape
            if max(A.nnz, n, m) >= 2**31:
                raise SolverError(f"{n} x {m} with {A.nnz} non-zeros: the core's CSR has 32-bit "
                                  "indices")
            self._solver.setup_csr(n, m, np.ascontiguousarray(A.indptr, dtype=np.int32),
                                   np.ascontiguousarray(A.indices, dtype=np.int32),
                                   np.ascontiguousarray(A.data, dtype=scalar))
            # Whether the core reads the caller's own arrays: told by where its operator's
            # arrays lie, not by which branch above was taken.
            return given.format == "csr" and self._solver.operator_arrays == [
                a.__array_interface__["data"][0] for a in (given.indptr, given.indices, given.data)]
        if A.ndim != 2:
            raise SolverError(f"A must be a 2-D array or a scipy.sparse matrix, not {A.ndim}-D")
        self._solver.setup_dense(np.ascontiguousarray(A, dtype=scalar))
        return False

    def solve(self, A, b, x0=None, raise_on_failure=True):
        """Sets the solver up with A (factor or analyse, and the preconditioner), then solves
        A x = b from x0 (zeros by default). Returns (x, SolveInfo)."""
        b = np.asarray(b)
        if not hasattr(A, "tocsr"):  # not a scipy.sparse matrix
            A = np.asarray(A)
        # Complex where either is (a real A with a complex b is solved as complex, as SciPy
        # does), else real.
        scalar = _scalar_type(np.result_type(_scalar_type(A.dtype), _scalar_type(b.dtype)))
        borrowed = self._setup(A, scalar)
        b = np.ascontiguousarray(b, dtype=scalar)
        x = np.zeros(b.shape, dtype=scalar)
        if x0 is not None:
            x[...] = x0
        if b.ndim != 1:
            raise SolverError(f"b must be a vector, not of shape {b.shape}")
        stats = self._solver.solve(b, x)
        # A converted for the solver (to dense, banded) is solved on the core's copy.
        info = SolveInfo(**stats, borrowed=borrowed and not stats["conversion"])
        if info.converged and not (info.true_residual <= self._residual_limit):
            # A solver that claims convergence on an x whose residual says otherwise: never
            # passed on as converged.
            info.converged = False
            info.status = (f"{info.status}; but ||b - A x|| / ||b|| = {info.true_residual:.3g} "
                           f"of the returned x is above {self._residual_limit:.3g}")
        if not info.converged and raise_on_failure:
            raise NotConvergedError(
                f"linear solver '{self.type}' did not converge: {info.status} (after "
                f"{info.iterations} iterations, true relative residual "
                f"{info.true_residual:.3g})", x=x, info=info)
        return x, info


def plugins(path=()):
    """What `solvent plugins` lists: {"search_path", "plugins": [dict per plugin],
    "skipped": [reason per library]}; `path`: folders searched first."""
    return _solvent.plugins([os.fspath(p) for p in path])


def describe(name):
    """What `solvent describe NAME` prints, as a dict (its "parameters": one dict each)."""
    return _solvent.describe(name)


def _toml_value(value):
    # TOML's inline form of one value, for `set=`: the toml package writes it, so strings
    # are quoted and escaped as TOML wants (a bare word would also pass --set, a path not).
    import toml
    return toml.dumps({"v": value}).split("=", 1)[1].strip()


def run(config, set=None, output=None, overwrite=False, progress=False,  # noqa: A002
        base_dir=None, comm=None):
    """Runs one experiment as `solvent run` does and returns its Result (also on disk, in
    the output folder). `config`: a path to a TOML file, TOML text, or a dict of sections;
    text and dicts are read as a file "<string>" or "<dict>" in `base_dir` (default: the
    current folder), from which their relative paths resolve. `set`: {"section.key": value}
    as --set; `output`: --output DIR; `overwrite`: --overwrite. `comm`: an mpi4py
    communicator whose ranks run it together, as mpirun's would (every rank of it calls run
    with the same arguments; rank 0 writes); None: the processes mpirun started, else one.

    Errors raise the classes of solvent.errors; Ctrl-C raises KeyboardInterrupt after the
    step in flight, with the outputs kept and the record saying "interrupted"."""
    overrides = [f"{k}={_toml_value(v)}" for k, v in (set or {}).items()]
    base = os.path.abspath(base_dir or os.getcwd())
    text = None
    if _is_sweep(config):
        if comm is not None:
            raise ConfigError("comm: a sweep runs its members as processes of the solvent "
                              "command, not on the caller's ranks; run it without comm")
        return _run_sweep(config, overrides, output, overwrite)
    if isinstance(config, dict):
        import toml
        text, path = toml.dumps(config), os.path.join(base, "<dict>")
    elif isinstance(config, str) and "\n" in config:
        text, path = config, os.path.join(base, "<string>")
    else:
        path = os.fspath(config)
    summary = _solvent.run(path, text, overrides, None if output is None else os.fspath(output),
                           overwrite, progress, _handle(comm))
    return open(summary["output_dir"])


def _is_sweep(config):
    if isinstance(config, dict):
        return "sweep" in config
    if isinstance(config, str) and "\n" in config:
        return tomllib.loads(config).get("sweep") is not None
    try:
        with builtins.open(config, "rb") as f:
            return "sweep" in tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return False  # the run reports it, with the command's message


def _run_sweep(config, overrides, output, overwrite):
    # A sweep runs each member as its own `solvent` process (a member that crashes is
    # recorded and the sweep goes on), so the command runs it, as `solvent run FILE` would.
    if not isinstance(config, (str, os.PathLike)) or "\n" in str(config):
        raise ConfigError("a sweep runs from its file: pass the path of the TOML file")
    args = [os.fspath(_solvent.command), "run", os.fspath(config), "--no-progress"]
    args += [f"--set={o}" for o in overrides]
    if output is not None:
        args += ["--output", os.fspath(output)]
    if overwrite:
        args.append("--overwrite")
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0 and done.returncode < 100:
        problems = [line.removeprefix("error: ") for line in done.stderr.splitlines()
                    if line.startswith("error: ")]
        cls = class_for_exit_code(done.returncode)
        raise cls("\n".join(problems) or done.stderr.strip(), exit_code=done.returncode,
                  problems=problems or None)
    # The sweep's folder: "results in DIR; the table: DIR/sweep.csv" on the last lines.
    folder = next(line.split("results in ", 1)[1].rsplit("; the table: ", 1)[0]
                  for line in reversed(done.stdout.splitlines()) if "results in " in line)
    result = open(folder)
    if done.returncode >= 100:
        error = SolventError(f"{done.returncode - 100} sweep member(s) failed; results in "
                             f"{folder} (sweep.csv)", exit_code=done.returncode)
        error.result = result  # the members that completed are there to read
        raise error
    return result
