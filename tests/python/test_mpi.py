"""`mpirun -n 2 python3 script.py`: a run from Python over two ranks writes the files the
command writes over two ranks, byte for byte (the record aside), whether the core starts MPI
or mpi4py started it first (the core then neither starts nor ends it)."""
import os
import subprocess
import sys

import pytest

from test_run import COMMAND, POISSON, SMALL_GRID, assert_same_files

MPIEXEC = os.environ["SOLVENT_MPIEXEC"]
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMP_NUM_THREADS="1", SOLVENT_RANK_TIMEOUT="30")


def two_ranks(*args):
    done = subprocess.run([MPIEXEC, "-n", "2", "--oversubscribe", *args], env=ENV,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.mark.parametrize("first", ["", "from mpi4py import MPI\n"])
def test_a_run_over_two_ranks_from_python_equals_the_commands(tmp_path, first):
    sets = [f"--set={k}={v}" for k, v in SMALL_GRID.items()]
    two_ranks(COMMAND, "run", POISSON, *sets, "--output", str(tmp_path / "cli"))
    script = (first + "import solvent\n"
              f"r = solvent.run({POISSON!r}, set={SMALL_GRID!r}, output={str(tmp_path / 'py')!r})\n"
              "print(r.record['host']['ranks'])\n")
    # Each rank prints 2; mpirun may join the two ranks' lines ("22"), so the digits count.
    said = "".join(two_ranks(sys.executable, "-c", script).stdout.split())
    assert said == "22"
    assert_same_files(tmp_path / "py", tmp_path / "cli")
