"""`mpirun -n 2 python3 script.py`: a run from Python over two ranks writes the files the
command writes over two ranks, byte for byte (the record aside), whether the core starts MPI
or mpi4py started it first (the core then neither starts nor ends it), also on communicators
of mpi4py; a linear solve over two ranks gives the command's solution bit for bit and
spsolve's answer; a rank that does not use Solvent is never waited for."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import solvent
from test_run import COMMAND, POISSON, SMALL_GRID, assert_same_files

MPIEXEC = os.environ["SOLVENT_MPIEXEC"]
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMP_NUM_THREADS="1", SOLVENT_RANK_TIMEOUT="30")


def two_ranks(*args):
    done = subprocess.run([MPIEXEC, "-n", "2", "--oversubscribe", *args], env=ENV,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


MPI4PY = "from mpi4py import MPI\n"
# The launcher's variables gone before the core is loaded: it learns from MPI itself
# (initialised, over two processes) that the run is two ranks.
UNSET = ("import os\nfor v in [v for v in os.environ if v.startswith(('OMPI_', 'PMIX_', "
         "'PMI_'))]:\n    del os.environ[v]\n")


@pytest.mark.parametrize("first", ["", MPI4PY, MPI4PY + UNSET], ids=["core", "mpi4py", "no-env"])
def test_a_run_over_two_ranks_from_python_equals_the_commands(tmp_path, first):
    sets = [f"--set={k}={v}" for k, v in SMALL_GRID.items()]
    two_ranks(COMMAND, "run", POISSON, *sets, "--output", str(tmp_path / "cli"))
    script = (first + "import solvent\n"
              f"r = solvent.run({POISSON!r}, set={SMALL_GRID!r}, output={str(tmp_path / 'py')!r})\n"
              "print(r.record['host']['ranks'])\n")
    if first:
        # MPI that mpi4py started is still running after the run: the core did not end it.
        script += "print(MPI.COMM_WORLD.allreduce(1))\n"
    # Each rank prints 2 (twice with mpi4py); mpirun may join the ranks' lines ("22"), so
    # the digits count.
    said = "".join(two_ranks(sys.executable, "-c", script).stdout.split())
    assert said == ("2222" if first else "22")
    assert_same_files(tmp_path / "py", tmp_path / "cli")


def test_a_run_on_a_communicator_of_mpi4py_equals_the_commands(tmp_path):
    # Each rank alone (Split by rank), then both with their order reversed: the runs are the
    # command's on one rank and on two, whichever world rank is the communicator's rank 0.
    sets = [f"--set={k}={v}" for k, v in SMALL_GRID.items()]
    subprocess.run([COMMAND, "run", POISSON, *sets, "--output", str(tmp_path / "cli1")],
                   env=ENV, check=True, capture_output=True)
    two_ranks(COMMAND, "run", POISSON, *sets, "--output", str(tmp_path / "cli2"))
    script = ("from mpi4py import MPI\nimport solvent\n"
              "w = MPI.COMM_WORLD\n"
              f"alone = solvent.run({POISSON!r}, set={SMALL_GRID!r}, comm=w.Split(w.rank), "
              f"output={str(tmp_path)!r} + f'/alone{{w.rank}}')\n"
              f"both = solvent.run({POISSON!r}, set={SMALL_GRID!r}, "
              f"comm=w.Split(0, w.size - 1 - w.rank), output={str(tmp_path / 'both')!r})\n"
              "said = w.gather([alone.record['host']['ranks'], both.record['host']['ranks']])\n"
              "if w.rank == 0:\n    print(json.dumps(said))\n")
    # Rank 0 alone prints: two ranks' lines printed at once may interleave ("11 2 2").
    said = json.loads(two_ranks(sys.executable, "-c", "import json\n" + script).stdout)
    assert said == [[1, 2], [1, 2]]
    assert_same_files(tmp_path / "alone0", tmp_path / "cli1")
    assert_same_files(tmp_path / "alone1", tmp_path / "cli1")
    assert_same_files(tmp_path / "both", tmp_path / "cli2")


# A nonsymmetric system (convection-diffusion in 1-D plus random couplings), each rank
# passing its rows; x gathered and compared with spsolve, and with the same solver on one
# rank. Rank 0 prints, for each rank (mpirun may join two ranks' lines): iterations,
# converged, the differences from spsolve and from the solve on one rank, the true residual
# reported and NumPy's.
DISTRIBUTED_SOLVE = """
import json
import numpy as np, scipy.sparse as sp, scipy.sparse.linalg as spla
from mpi4py import MPI
import solvent
w = MPI.COMM_WORLD
n = 300
rng = np.random.default_rng(7)
A = (sp.diags([-1.3, 2.6, -0.7], [-1, 0, 1], shape=(n, n))
     + 0.05 * sp.random(n, n, density=0.01, random_state=rng)).tocsr()
b = rng.standard_normal(n) + ({scalar} 0)
rows = solvent.row_range(n, w)
solver = solvent.LinearSolver("{solver}", preconditioner="{pc}", tolerance=1e-11, comm=w)
x, info = solver.solve(A[rows.start:rows.stop], b[rows.start:rows.stop])
whole = np.concatenate(w.allgather(x))
alone, _ = solvent.LinearSolver("{solver}", preconditioner="{pc}", tolerance=1e-11).solve(A, b)
mine = [info.iterations, info.converged, np.max(np.abs(whole - spla.spsolve(A.tocsc(), b))),
        np.max(np.abs(whole - alone)), info.true_residual,
        np.linalg.norm(b - A @ whole) / np.linalg.norm(b)]
every = w.gather([float(v) for v in mine], root=0)
if w.rank == 0:
    print(json.dumps(every))
"""


@pytest.mark.parametrize("solver,pc,scalar", [("bicgstab", "jacobi", ""), ("tfqmr", "ilu0", "1j *")])
def test_a_linear_solve_over_two_ranks_of_mpi4py_agrees_with_spsolve(solver, pc, scalar):
    out = two_ranks(sys.executable, "-c",
                    DISTRIBUTED_SOLVE.format(solver=solver, pc=pc, scalar=scalar)).stdout
    ranks = json.loads(out)
    assert len(ranks) == 2
    # Both ranks took the same iterations and report the same true residual, bit for bit.
    assert ranks[0][0] == ranks[1][0] and ranks[0][4] == ranks[1][4]
    for iterations, converged, from_spsolve, from_alone, true_residual, numpy_residual in ranks:
        assert iterations >= 1 and converged == 1.0
        assert from_spsolve < 1e-8 and from_alone < 1e-8
        assert true_residual <= 1e-10
        assert numpy_residual == pytest.approx(true_residual, rel=1e-3, abs=1e-14)


def test_a_communicator_that_is_not_one_is_refused():
    done = subprocess.run([sys.executable, "-c", "import solvent\n"
                           "solvent.LinearSolver('cg', comm=3)"],
                          env=ENV, capture_output=True, text=True)
    assert "solvent.errors.ConfigError: comm: an mpi4py communicator (mpi4py.MPI.Comm), not a int" \
        in done.stderr


def test_a_rank_that_solves_alone_leaves_the_others_free():
    # Rank 0 alone uses Solvent (on COMM_SELF); rank 1 never loads it. Neither waits for the
    # other at its exit (the core makes no communicator of the world it was not asked for).
    script = ("from mpi4py import MPI\nimport numpy as np, scipy.sparse as sp\n"
              "w = MPI.COMM_WORLD\n"
              "if w.rank == 0:\n"
              "    import solvent\n"
              "    x, _ = solvent.LinearSolver('bicgstab', comm=MPI.COMM_SELF).solve(\n"
              "        2 * sp.identity(5, format='csr'), np.ones(5))\n"
              "    print('x', x.tolist())\n")
    done = subprocess.run([MPIEXEC, "-n", "2", "--oversubscribe", sys.executable, "-c", script],
                          env=ENV, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "x [0.5, 0.5, 0.5, 0.5, 0.5]"


@pytest.mark.parametrize("solver,pc", [("bicgstab", "jacobi"), ("tfqmr", "ilu0")])
def test_a_linear_solve_over_two_ranks_equals_the_commands_bit_for_bit(tmp_path, solver, pc):
    # The same Matrix Market file solved by `mpirun -n 2 solvent run` (the matrix-file model,
    # its rows split in contiguous ranges as solvent.row_range splits them, b all ones) and
    # by LinearSolver over MPI.COMM_WORLD: the same solution and residual history, bit for bit.
    n = 300
    rng = np.random.default_rng(7)
    a = (sp.diags([-1.3, 2.6, -0.7], [-1, 0, 1], shape=(n, n))
         + 0.05 * sp.random(n, n, density=0.01, random_state=rng))
    scipy.io.mmwrite(tmp_path / "a.mtx", a)
    (tmp_path / "a.toml").write_text(
        '[model]\ntype = "matrix-file"\nmatrix = "a.mtx"\npartition = "contiguous"\n'
        '[integrator]\ntype = "steady"\n'
        f'[linear_solver]\ntype = "{solver}"\ntolerance = 1e-11\n'
        f'[preconditioner]\ntype = "{pc}"\n')
    two_ranks(COMMAND, "run", str(tmp_path / "a.toml"), "--output", str(tmp_path / "cli"),
              "--no-progress")
    script = ("import json, numpy as np, scipy.io\nfrom mpi4py import MPI\nimport solvent\n"
              "w = MPI.COMM_WORLD\n"
              f"a = scipy.io.mmread({str(tmp_path / 'a.mtx')!r}).tocsr()\n"
              "rows = solvent.row_range(a.shape[0], w)\n"
              f"solver = solvent.LinearSolver({solver!r}, preconditioner={pc!r}, "
              "tolerance=1e-11, comm=w)\n"
              "x, info = solver.solve(a[rows.start:rows.stop], np.ones(len(rows)))\n"
              "x = np.concatenate(w.allgather(x))\n"
              "if w.rank == 0:\n"
              "    print(json.dumps([x.tolist(), info.residual_history.tolist()]))\n")
    x, history = json.loads(two_ranks(sys.executable, "-c", script).stdout)
    theirs = solvent.open(tmp_path / "cli")
    cli_x = np.loadtxt(tmp_path / "cli" / "solution.csv", delimiter=",", skiprows=1)[:, 1]
    cli_history = np.loadtxt(tmp_path / "cli" / "residual_history.csv", delimiter=",",
                             skiprows=1)[:, 1]
    assert theirs.record["host"]["ranks"] == 2
    assert len(history) > 5  # iterations to compare, not a direct hit
    assert np.array_equal(np.array(x), cli_x)
    assert np.array_equal(np.array(history), cli_history)
