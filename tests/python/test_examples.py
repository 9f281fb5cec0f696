"""The Python example that needs no plotting library runs as is and agrees with SciPy."""
import os
import re
import subprocess
import sys

SOURCE = os.environ["SOLVENT_SOURCE_DIR"]


def test_three_solvers_agree_with_spsolve():
    done = subprocess.run([sys.executable, os.path.join(SOURCE, "examples", "python",
                                                        "three_solvers.py"), "12"],
                          capture_output=True, text=True, check=True)
    differences = [float(d) for d in re.findall(r"difference from spsolve (\S+)", done.stdout)]
    assert len(differences) == 3
    assert max(differences) < 1e-8
