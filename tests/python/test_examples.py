"""The Python examples run as they are: three back ends agree with SciPy, and the sweep is
run and plotted with matplotlib."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import solvent

SOURCE = os.environ["SOLVENT_SOURCE_DIR"]


def test_three_solvers_agree_with_spsolve():
    done = subprocess.run([sys.executable, os.path.join(SOURCE, "examples", "python",
                                                        "three_solvers.py"), "12"],
                          capture_output=True, text=True, check=True)
    differences = [float(d) for d in re.findall(r"difference from spsolve (\S+)", done.stdout)]
    assert len(differences) == 3
    assert max(differences) < 1e-8


def test_the_sweep_is_plotted_from_any_folder(tmp_path):
    # Run from elsewhere than the repository, with matplotlib's non-interactive backend: the
    # six members of the shipped sweep, and a PNG of their max_C.
    pytest.importorskip("matplotlib", reason="python3-matplotlib (scripts/install-deps)")
    out = tmp_path / "sweep"
    done = subprocess.run([sys.executable, os.path.join(SOURCE, "examples", "python",
                                                        "sweep_plot.py"), str(out)],
                          cwd=tmp_path, env=dict(os.environ, MPLBACKEND="Agg"),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"6 members; plot in {out}/max_C-k1.png"
    with open(out / "max_C-k1.png", "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    table = solvent.open(out).sweep
    assert len(table["max_C"]) == 6 and all(np.isfinite(table["max_C"]))
