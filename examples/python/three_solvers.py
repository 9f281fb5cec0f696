#!/usr/bin/env python3
"""One SciPy matrix, three of Solvent's back ends, and SciPy's own solver: the same answer,
and how long each took. Run from the repository after building:

    PYTHONPATH=build/python /usr/bin/python3 examples/python/three_solvers.py [n]"""
import sys
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import solvent

n = int(sys.argv[1]) if len(sys.argv) > 1 else 40  # an n x n grid: n^2 unknowns
t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
A = (sp.kron(sp.identity(n), t) + sp.kron(t, sp.identity(n))).tocsr()  # 2D Laplacian
b = np.ones(A.shape[0])

start = time.perf_counter()
reference = spla.spsolve(A.tocsc(), b)
print(f"{'scipy spsolve':28s} {time.perf_counter() - start:8.4f} s")
for name, options in [("lapack", {}), ("banded", {}),
                      ("cg", {"preconditioner": "ilu0", "tolerance": 1e-12})]:
    start = time.perf_counter()
    x, info = solvent.LinearSolver(name, **options).solve(A, b)
    seconds = time.perf_counter() - start
    error = np.linalg.norm(x - reference) / np.linalg.norm(reference)
    label = name + (f" + {options['preconditioner']}" if "preconditioner" in options else "")
    print(f"{label:28s} {seconds:8.4f} s  {info.iterations:5d} iterations  "
          f"true residual {info.true_residual:.2e}  difference from spsolve {error:.2e}")
