"""A third party's plugin on SOLVENT_PLUGIN_PATH (the example plugin, built into a folder of
its own): listed by solvent.plugins() from that folder, described, and solving SciPy
systems as the shipped solvers do."""
import os

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import solvent

FOLDER = os.environ["SOLVENT_PLUGIN_PATH"].split(":")[0]


def test_the_plugin_is_found_in_its_folder():
    found = {p["name"]: p for p in solvent.plugins()["plugins"]}
    assert found["acme-jacobi"]["library"] == os.path.join(FOLDER, "libsolvent-acme-jacobi.so")
    assert found["acme-jacobi"]["kind"] == "linear_solver"
    assert FOLDER in solvent.plugins()["search_path"]


def test_it_is_described_with_its_schema():
    names = [p["name"] for p in solvent.describe("acme-jacobi")["parameters"]]
    assert names == ["tolerance", "max_iterations", "weight"]


def test_it_solves_a_scipy_system():
    n = 50
    a = sp.diags([-1.0, 4.0, -1.0], [-1, 0, 1], shape=(n, n), format="csr")
    b = np.arange(1.0, n + 1)
    x, info = solvent.LinearSolver("acme-jacobi", tolerance=1e-12).solve(a, b)
    assert info.converged and info.iterations > 1
    assert np.linalg.norm(x - spla.spsolve(a.tocsc(), b)) <= 1e-10 * np.linalg.norm(x)


def test_its_keys_are_checked_as_the_shipped_ones():
    try:
        solvent.LinearSolver("acme-jacobi", weight=2.0)
    except solvent.ConfigError as e:
        assert "'weight'" in str(e) and "<= 1" in str(e)
    else:
        raise AssertionError("weight = 2 was accepted")
