"""A CSR matrix of the core's layout is solved in its own arrays: the core reads the caller's
memory (a change to A's values after setup is seen by the next solve), holds the arrays while
it may read them, and gives the same solution bit for bit as the converting path and as a
run of the same matrix from TOML. Every other layout is converted, and says so."""
import gc
import os
import weakref

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import solvent

N = 200


def matrix(dtype=np.float64):
    a = sp.diags([-1.3, 2.6, -0.7], [-1, 0, 1], shape=(N, N), format="csr", dtype=dtype)
    if np.issubdtype(dtype, np.complexfloating):
        a = (a + 0.2j * sp.identity(N, format="csr")).tocsr()
    assert a.has_canonical_format and a.indices.dtype == np.int32
    return a


def wide(a):
    """A with int64 indices (SciPy's constructors would pick int32 for so few)."""
    w = a.copy()
    w.indices = w.indices.astype(np.int64)
    w.indptr = w.indptr.astype(np.int64)
    return w


def addresses(a):
    return [v.__array_interface__["data"][0] for v in (a.indptr, a.indices, a.data)]


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_a_canonical_csr_matrix_is_read_in_place(dtype):
    a = matrix(dtype)
    solver = solvent.LinearSolver("bicgstab", preconditioner="jacobi", tolerance=1e-12)
    x, info = solver.solve(a, np.ones(N, dtype=dtype))
    assert info.converged and info.borrowed
    assert solver._solver.operator_arrays == addresses(a)


@pytest.mark.parametrize("given,why", [
    (lambda a: a.tocsc(), "CSC, converted to CSR"),
    (lambda a: a.tocoo(), "COO, converted to CSR"),
    (lambda a: a.toarray(), "dense, copied into the core's dense matrix"),
    (lambda a: a.astype(np.float32), "float32 values, widened"),
    (lambda a: wide(a), "int64 indices, narrowed"),
])
def test_every_other_layout_is_converted_once_and_says_so(given, why):
    a = matrix()
    _, info = solvent.LinearSolver("bicgstab", tolerance=1e-12).solve(given(a), np.ones(N))
    assert info.converged
    assert not info.borrowed, why


def test_a_solver_that_converts_the_matrix_says_it_did_not_read_it_in_place():
    _, info = solvent.LinearSolver("lapack").solve(matrix(), np.ones(N))
    assert info.conversion.startswith("csr -> dense")
    assert not info.borrowed


def test_the_core_reads_the_callers_values_themselves():
    # After setup, A's values are doubled in the caller's array and the set-up solver solves
    # again from the x it found: reading A's own memory it finds y = x / 2 (of 2 A y = b); had
    # it copied A, it would see x converged already and return it after no iteration.
    a = matrix()
    b = np.ones(N)
    solver = solvent.LinearSolver("bicgstab", tolerance=1e-12)
    x, info = solver.solve(a, b)
    assert info.borrowed
    a.data *= 2.0
    y = x.copy()
    again = solver._solver.solve(b, y)
    assert again["iterations"] > 0 and again["true_residual"] < 1e-10
    assert np.allclose(y, x / 2, rtol=1e-9, atol=0)


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_setting_up_a_large_matrix_takes_no_memory_of_its_size():
    # 6 million non-zeros, 72 MB of arrays; a copy would stay resident with the solver.
    n = 100_000
    a = sp.diags([-0.05] * 30 + [4.0] + [-0.05] * 30, range(-30, 31), shape=(n, n), format="csr")
    size = a.data.nbytes + a.indices.nbytes + a.indptr.nbytes
    solver = solvent.LinearSolver("bicgstab", max_iterations=2)
    solver.solve(matrix(), np.ones(N), raise_on_failure=False)  # plugin loaded, memory warm
    before = resident_bytes()
    _, info = solver.solve(a, np.ones(n), raise_on_failure=False)
    grown = resident_bytes() - before
    assert info.borrowed and info.iterations == 2
    assert grown < size / 4, f"{grown} bytes more resident for {size} bytes of A"


def test_the_solver_keeps_the_arrays_alive_and_lets_them_go_with_it():
    a = matrix()
    a = (a + a.T).tocsr()  # symmetric, for cg
    values = weakref.ref(a.data)
    solver = solvent.LinearSolver("cg", tolerance=1e-12)
    b = np.ones(N)
    x, info = solver.solve(a, b)
    assert info.borrowed
    del a
    gc.collect()
    assert values() is not None  # the core may still read them
    y = np.zeros(N)
    assert solver._solver.solve(b, y)["true_residual"] < 1e-10
    assert np.array_equal(x, y)
    del solver
    gc.collect()
    assert values() is None


@pytest.mark.parametrize("solver,pc", [("bicgstab", "jacobi"), ("tfqmr", "ilu0"), ("cg", None)])
def test_in_place_equals_the_converting_path_and_a_toml_run_bit_for_bit(tmp_path, solver, pc):
    rng = np.random.default_rng(7)
    a = sp.diags([-1.0, 2.6, -1.0], [-1, 0, 1], shape=(N, N)) + 0.05 * sp.random(
        N, N, density=0.01, random_state=rng)
    if solver == "cg":
        a = a + a.T
    scipy.io.mmwrite(tmp_path / "a.mtx", a)
    a = scipy.io.mmread(tmp_path / "a.mtx").tocsr()
    b = np.ones(N)
    make = lambda: solvent.LinearSolver(solver, preconditioner=pc, tolerance=1e-11)  # noqa: E731
    x, info = make().solve(a, b)
    assert info.borrowed and info.iterations > 2
    # The same matrix through the converting path: int64 indices, narrowed into new arrays.
    x_copied, info_copied = make().solve(wide(a), b)
    assert not info_copied.borrowed
    assert np.array_equal(x, x_copied)
    assert np.array_equal(info.residual_history, info_copied.residual_history)
    # The same file run by the run driver (the matrix-file model, b all ones).
    config = {"model": {"type": "matrix-file", "matrix": str(tmp_path / "a.mtx")},
              "integrator": {"type": "steady"},
              "linear_solver": {"type": solver, "tolerance": 1e-11}}
    if pc:
        config["preconditioner"] = {"type": pc}
    solvent.run(config, output=tmp_path / "run")
    run_x = np.loadtxt(tmp_path / "run" / "solution.csv", delimiter=",", skiprows=1)[:, 1]
    assert np.array_equal(x, run_x)
