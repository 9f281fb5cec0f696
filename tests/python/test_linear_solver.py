"""solvent.LinearSolver on SciPy-made systems, against scipy.sparse.linalg.spsolve: every CPU
linear solver of the build with every CPU preconditioner, every SciPy storage, real and
complex; and the failures: an unknown key, a solve that does not converge, a singular
matrix."""
import threading
import time

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import solvent

N = 8  # an 8 x 8 grid: 64 unknowns, bandwidth 8


def laplacian():
    """The 2D five-point Laplacian: symmetric positive definite (what cg needs)."""
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(N, N))
    return (sp.kron(sp.identity(N), t) + sp.kron(t, sp.identity(N))).tocsr()


def convection():
    """Convection-diffusion: non-symmetric, diagonally dominant."""
    t = sp.diags([-1.3, 2.0, -0.7], [-1, 0, 1], shape=(N, N))
    return (sp.kron(sp.identity(N), t) + sp.kron(t, sp.identity(N)) + 0.5 * sp.identity(N * N)).tocsr()


def rhs(n, complex_=False):
    rng = np.random.default_rng(7)
    b = rng.standard_normal(n)
    return b + 1j * rng.standard_normal(n) if complex_ else b


def agrees(x, reference):
    return np.linalg.norm(x - reference) <= 1e-8 * np.linalg.norm(reference)


def cpu(kind):
    return sorted(p["name"] for p in solvent.plugins()["plugins"]
                  if p["kind"] == kind and p["device"] == "cpu")


ITERATIVE = ["bicgstab", "bicgstab-l", "tfqmr", "cg"]
DIRECT = ["gepp-cpu", "lapack", "banded"]
# The pairs that must solve; any other pair of this build (petsc, a plugin on the path) must
# either solve to the same answer or refuse with a Solvent error, never return a wrong x.
MUST = ([(s, None) for s in DIRECT] +
        [(s, p) for s in ITERATIVE for p in (None, "jacobi", "ilu0")])
ALL = sorted({(s, None) for s in cpu("linear_solver")} |
             {(s, p) for s in cpu("linear_solver") for p in cpu("preconditioner")} | set(MUST),
             key=str)


@pytest.mark.parametrize("name,pc", ALL)
def test_every_cpu_pair_agrees_with_spsolve(name, pc):
    a = laplacian() if name == "cg" else convection()
    b = rhs(a.shape[0])
    reference = spla.spsolve(a.tocsc(), b)
    settings = {"tolerance": 1e-12} if "tolerance" in [
        p["name"] for p in solvent.describe(name)["parameters"]] else {}
    try:
        solver = solvent.LinearSolver(name, preconditioner=pc, **settings)
        x, info = solver.solve(a, b)
    except solvent.SolventError as e:
        assert (name, pc) not in MUST, f"{name} with {pc}: {e}"
        return
    assert info.converged
    assert agrees(x, reference), f"{name} with {pc}: {np.linalg.norm(x - reference)}"
    assert info.true_residual <= 1e-10


@pytest.mark.parametrize("storage", ["csr", "csc", "coo", "lil", "dense"])
def test_every_storage(storage):
    a = convection()
    b = rhs(a.shape[0])
    given = a.toarray() if storage == "dense" else a.asformat(storage)
    x, info = solvent.LinearSolver("lapack").solve(given, b)
    assert agrees(x, spla.spsolve(a.tocsc(), b))
    # A dense array is what lapack works on; CSR is converted to it, and that is said.
    if storage == "dense":
        assert info.conversion == ""
    else:
        assert info.conversion.startswith("csr -> dense")


@pytest.mark.parametrize("name", ["lapack", "bicgstab", "tfqmr"])
def test_complex_systems(name):
    a = (convection() + 0.3j * sp.identity(N * N)).tocsr()
    b = rhs(a.shape[0], complex_=True)
    x, info = solvent.LinearSolver(name).solve(a, b)
    assert x.dtype == np.complex128
    assert agrees(x, spla.spsolve(a.tocsc(), b))


def test_duplicates_and_unsorted_columns_are_summed_as_scipy_does():
    a = convection().tocoo()
    doubled = sp.coo_matrix((np.concatenate([a.data, a.data]) / 2,
                             (np.concatenate([a.row, a.row]), np.concatenate([a.col, a.col]))),
                            shape=a.shape)
    b = rhs(a.shape[0])
    x, _ = solvent.LinearSolver("gepp-cpu").solve(doubled, b)
    assert agrees(x, spla.spsolve(a.tocsc(), b))


def test_statistics_of_an_iterative_solve():
    a = laplacian()
    b = rhs(a.shape[0])
    x, info = solvent.LinearSolver("cg", tolerance=1e-10).solve(a, b, x0=np.ones(a.shape[0]))
    assert info.status == "converged"
    assert info.iterations >= 1
    assert len(info.residual_history) == info.iterations + 1
    assert info.residual_history[-1] <= 1e-10
    assert info.true_residual == pytest.approx(np.linalg.norm(b - a @ x) / np.linalg.norm(b),
                                               rel=1e-6)


def test_unknown_key_names_it_and_the_nearest():
    with pytest.raises(solvent.ConfigError) as e:
        solvent.LinearSolver("bicgstab", tolerence=1e-8)
    assert e.value.exit_code == 2
    assert e.value.problems == [
        "linear_solver 'bicgstab': unknown key 'tolerence'; did you mean 'tolerance'?"]


def test_unknown_key_lists_the_valid_ones():
    with pytest.raises(solvent.ConfigError) as e:
        solvent.LinearSolver("lapack", zzz=1)
    assert "unknown key 'zzz' (valid keys: " in str(e.value)


def test_value_out_of_range():
    with pytest.raises(solvent.ConfigError, match="'tolerance'"):
        solvent.LinearSolver("bicgstab", tolerance=-1.0)


def test_unknown_solver_is_a_plugin_error():
    with pytest.raises(solvent.PluginError) as e:
        solvent.LinearSolver("bicgstabb")
    assert e.value.exit_code == 3
    assert "bicgstab" in str(e.value)


def test_not_converged_raises_with_the_iterate():
    a = convection()
    b = rhs(a.shape[0])
    solver = solvent.LinearSolver("bicgstab", tolerance=1e-12, max_iterations=2)
    with pytest.raises(solvent.NotConvergedError) as e:
        solver.solve(a, b)
    assert e.value.exit_code == 6
    assert not e.value.info.converged
    assert e.value.x.shape == b.shape
    x, info = solver.solve(a, b, raise_on_failure=False)
    assert not info.converged and info.status == "max_iterations"


def test_singular_matrix_is_a_solver_error():
    a = convection().tolil()
    a[3, :] = 0.0
    with pytest.raises(solvent.SolverError) as e:
        solvent.LinearSolver("lapack").solve(a.tocsr(), rhs(N * N))
    assert e.value.exit_code == 5


def test_wrong_size_of_b_is_refused():
    with pytest.raises(solvent.SolventError):
        solvent.LinearSolver("lapack").solve(convection(), np.ones(3))


def test_describe_mirrors_the_command():
    d = solvent.describe("bicgstab")
    assert d["kind"] == "linear_solver" and d["device"] == "cpu"
    tolerance = next(p for p in d["parameters"] if p["name"] == "tolerance")
    assert tolerance["type"] == "real" and tolerance["default"] == 1e-9


@pytest.mark.parametrize("name", ["lapack", "banded", "bicgstab", "cg"])
def test_a_matrix_that_is_not_square_is_refused_by_the_core(name):
    wide = sp.random(20, 30, density=0.2, format="csr", random_state=1)
    with pytest.raises(solvent.SolverError) as e:
        solvent.LinearSolver(name).solve(wide, np.ones(20))
    assert str(e.value) == "the matrix is 20 x 30, not square"


def test_a_real_matrix_with_a_complex_rhs_is_solved_as_complex():
    a = convection()
    b = rhs(a.shape[0], complex_=True)
    x, _ = solvent.LinearSolver("bicgstab", tolerance=1e-12).solve(a, b)
    assert x.dtype == np.complex128
    assert agrees(x, spla.spsolve(a.tocsc().astype(complex), b))


def test_non_finite_entries_never_give_a_converged_answer():
    a = convection().tolil()
    a[5, 5] = np.nan
    for name in ["lapack", "gepp-cpu", "bicgstab", "tfqmr"]:
        with pytest.raises(solvent.SolventError):
            solvent.LinearSolver(name).solve(a.tocsr(), rhs(N * N))


def test_other_python_threads_run_while_the_core_factors_and_solves():
    # A thread that only notes the time: while the main thread is in the core with the GIL
    # released it keeps noting, so no gap between its notes comes near the call's length
    # (held, the gap would be the whole factorisation).
    a = np.random.default_rng(3).standard_normal((900, 900)) + 30 * np.identity(900)
    b = np.ones(900)
    notes, done = [], threading.Event()

    def note():
        while not done.is_set():
            notes.append(time.perf_counter())

    solver = solvent.LinearSolver("gepp-cpu")
    clock = threading.Thread(target=note)
    clock.start()
    time.sleep(0.01)
    start = time.perf_counter()
    x, info = solver.solve(a, b)
    end = time.perf_counter()
    done.set()
    clock.join()
    assert info.converged and end - start > 0.05  # long enough for the gaps to say something
    inside = [start] + [t for t in notes if start < t < end] + [end]
    assert max(np.diff(inside)) < 0.5 * (end - start)


CUDA = [p["name"] for p in solvent.plugins()["plugins"]
        if p["kind"] == "linear_solver" and p["device"] == "cuda" and p["name"] != "matm-cuda"]


@pytest.mark.skipif(not CUDA, reason="no CUDA linear solver in this build (nvcc at build time)")
@pytest.mark.parametrize("name", CUDA)
def test_a_cuda_solver_solves_as_the_cpu_ones_or_says_there_is_no_device(name):
    # With a usable GPU: spsolve's answer, as a CPU solver gives it. Without one
    # (CUDA_VISIBLE_DEVICES= hides them): the no-device class, with the core's message.
    a = laplacian() if name == "cg-cuda" else convection()
    b = rhs(a.shape[0])
    settings = {"tolerance": 1e-12} if "tolerance" in [
        p["name"] for p in solvent.describe(name)["parameters"]] else {}
    try:
        x, info = solvent.LinearSolver(name, **settings).solve(a, b)
    except solvent.DeviceUnavailableError as e:
        assert e.exit_code == 7
        assert str(e).startswith(f"{name}: ") and ": no CUDA device" in str(e), str(e)
        return
    assert info.converged
    assert agrees(x, spla.spsolve(a.tocsc(), b))
