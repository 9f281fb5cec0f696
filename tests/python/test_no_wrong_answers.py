"""Random SciPy-made systems of every kind a user may hand over (non-symmetric, complex,
indefinite, badly conditioned, singular), through every CPU solver and preconditioner of the
build: a call either raises a Solvent error or returns an x; where it returns one said to have
converged, ||b - A x|| / ||b||, recomputed here with SciPy, is within the limit the package
promises, and x is spsolve's answer up to the system's condition. No call may say converged
on a wrong answer."""
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import solvent

N = 60


def cpu(kind):
    return sorted(p["name"] for p in solvent.plugins()["plugins"]
                  if p["kind"] == kind and p["device"] == "cpu")


def nonsymmetric(rng):
    """Random couplings on a dominant diagonal: easy for everyone."""
    return sp.random(N, N, density=0.08, random_state=rng) + 4 * sp.identity(N)


def nonsymmetric_complex(rng):
    a = sp.random(N, N, density=0.08, random_state=rng)
    return a + 1j * sp.random(N, N, density=0.08, random_state=rng) + (3 + 2j) * sp.identity(N)


def indefinite(rng):
    """The 1-D Laplacian shifted past its fifth eigenvalue: symmetric, not definite (cg may
    break down; it must not claim to have converged on a wrong x)."""
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(N, N))
    return t - 2 * (1 - np.cos(5.5 * np.pi / (N + 1))) * sp.identity(N)


def helmholtz_complex(rng):
    """Complex symmetric, not Hermitian: a damped Helmholtz operator."""
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(N, N))
    return t - (0.3 - 0.01j) * sp.identity(N)


def zero_diagonal(rng):
    """A permutation-like, well-conditioned matrix with zeros on the diagonal (Jacobi and
    ILU(0) cannot be formed as they are)."""
    p = sp.eye(N, k=1) + sp.eye(N, k=-(N - 1))
    return (3 * p + sp.random(N, N, density=0.03, random_state=rng)).tocsr()


def ill_conditioned(rng):
    """Singular values spread over twelve orders of magnitude."""
    u, _ = np.linalg.qr(rng.standard_normal((N, N)))
    v, _ = np.linalg.qr(rng.standard_normal((N, N)))
    return sp.csr_matrix(u @ np.diag(np.logspace(0, -12, N)) @ v.T)


def singular(rng):
    """Rank N - 1, with a b outside its range: there is no x to converge to."""
    a = nonsymmetric(rng).tolil()
    a[N - 1, :] = a[0, :]
    return a.tocsr()


SYSTEMS = [nonsymmetric, nonsymmetric_complex, indefinite, helmholtz_complex, zero_diagonal,
           ill_conditioned, singular]
PAIRS = sorted({(s, None) for s in cpu("linear_solver")} |
               {(s, p) for s in cpu("linear_solver") for p in cpu("preconditioner")}, key=str)


@pytest.mark.parametrize("make", SYSTEMS, ids=lambda f: f.__name__)
def test_no_call_returns_converged_on_a_wrong_answer(make):
    rng = np.random.default_rng(2026)
    a = sp.csr_matrix(make(rng))
    b = rng.standard_normal(N) + (1j * rng.standard_normal(N) if a.dtype.kind == "c" else 0)
    dense = a.toarray()
    solvable = np.linalg.matrix_rank(dense) == N
    condition = np.linalg.cond(dense) if solvable else np.inf
    reference = np.linalg.solve(dense, b) if solvable else None
    converged = []
    for name, pc in PAIRS:
        try:
            solver = solvent.LinearSolver(name, preconditioner=pc)
            x, info = solver.solve(a, b, raise_on_failure=False)
        except solvent.SolventError:
            continue  # refused, broke down, or not converged (with its message): not a lie
        if not info.converged:
            continue
        converged.append((name, pc))
        # The promise: ||b - A x|| / ||b|| within 10 x the solver's tolerance, or 1e-8 for a
        # direct solver (solver._residual_limit), recomputed by SciPy, not by the core.
        residual = np.linalg.norm(b - a @ x) / np.linalg.norm(b)
        assert np.all(np.isfinite(x)), f"{name} with {pc}: converged on a non-finite x"
        assert residual <= solver._residual_limit * (1 + 1e-6), \
            f"{name} with {pc}: converged, but ||b - A x|| / ||b|| = {residual:.3g}"
        assert info.true_residual == pytest.approx(residual, rel=1e-6, abs=1e-15)
        assert solvable, f"{name} with {pc}: converged on a singular system"
        # The forward error a residual of that size allows.
        error = np.linalg.norm(x - reference) / np.linalg.norm(reference)
        assert error <= 10 * condition * residual + 1e-12, \
            f"{name} with {pc}: converged, but off spsolve by {error:.3g}"
    if make in (nonsymmetric, nonsymmetric_complex, helmholtz_complex):
        # Systems the direct solvers always solve: the test saw converged answers to check.
        assert ("lapack", None) in converged
