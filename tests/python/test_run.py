"""solvent.run against the command: the same configuration run both ways writes the same
files, byte for byte (the record aside: times, process, command line); a configuration
given as TOML text or as a dict runs as its file does; a bad configuration raises with the
command's messages; and the result reads back as NumPy arrays."""
import filecmp
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import solvent

SOURCE = os.environ["SOLVENT_SOURCE_DIR"]
COMMAND = os.environ["SOLVENT_COMMAND"]
A1D = os.path.join(SOURCE, "config", "angiogenesis-1d-banded.toml")
POISSON = os.path.join(SOURCE, "config", "matm-poisson.toml")
SHORT = {"integrator.steps": 20, "model.M": 50}
SMALL_GRID = {"model.n1": 9, "model.n2": 8, "model.n3": 7}


def command(config, settings, output, *extra):
    sets = [f"--set={k}={v}" for k, v in settings.items()]
    return subprocess.run([COMMAND, "run", config, *sets, "--output", str(output), *extra],
                          capture_output=True, text=True)


def written(folder):
    """Every file a run wrote, but its record and its log, which hold times (relative path ->
    absolute path)."""
    found = {}
    for root, _, files in os.walk(folder):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), folder)
            if rel not in ("record.toml", "log.txt"):
                found[rel] = os.path.join(root, f)
    return found


def assert_same_files(ours, theirs):
    a, b = written(ours), written(theirs)
    assert sorted(a) == sorted(b)
    for rel in a:
        assert filecmp.cmp(a[rel], b[rel], shallow=False), f"{rel} differs"


@pytest.mark.parametrize("config,settings", [(A1D, SHORT), (POISSON, SMALL_GRID)])
def test_a_run_from_python_equals_the_commands_bit_for_bit(tmp_path, config, settings):
    assert command(config, settings, tmp_path / "cli").returncode == 0
    result = solvent.run(config, set=settings, output=tmp_path / "py")
    assert result.status == "completed"
    assert_same_files(tmp_path / "py", tmp_path / "cli")
    theirs = solvent.open(tmp_path / "cli")
    assert result.record["result"]["steps"] == theirs.record["result"]["steps"]


def test_observables_and_profiles_read_back_bit_for_bit(tmp_path):
    result = solvent.run(A1D, set=SHORT, output=tmp_path / "py")
    obs = result.observables
    rows = [line.split(",") for line in open(tmp_path / "py" / "observables.csv")]
    assert list(obs["max_C"]) == [float(r[rows[0].index("max_C")]) for r in rows[1:]]
    assert len(rows) == SHORT["integrator.steps"] + 2
    assert sorted(result.profiles) == [0, 10, 20]
    assert len(result.profile(20)["C"]) == SHORT["model.M"]


def test_a_grid_solution_reads_back_as_an_array(tmp_path):
    result = solvent.run(POISSON, set=SMALL_GRID, output=tmp_path / "py")
    u = result.solution["u"]
    assert u.shape == (7, 8, 9)
    assert np.all(np.isfinite(u))
    assert result.record["result"]["converged"] in (True, "true")


def test_text_and_dict_configurations_run_as_their_file(tmp_path):
    import tomllib
    text = open(A1D).read()
    with open(A1D, "rb") as f:
        table = tomllib.load(f)
    command(A1D, SHORT, tmp_path / "cli")
    # Read as if in the file's folder, their relative paths ([output] directory) mean the same.
    base = os.path.dirname(A1D)
    solvent.run(text, set=SHORT, output=tmp_path / "text", base_dir=base)
    solvent.run(table, set=SHORT, output=tmp_path / "dict", base_dir=base)
    # The resolved configuration keeps the file's comments out: config.toml is equal too.
    assert_same_files(tmp_path / "text", tmp_path / "cli")
    assert_same_files(tmp_path / "dict", tmp_path / "cli")


def bad_config(tmp_path):
    path = tmp_path / "bad.toml"
    text = open(A1D).read().replace("steps = 100", "stpes = 100\nsteps = 5")
    path.write_text(text)
    return path


def test_a_bad_key_raises_with_the_commands_message(tmp_path):
    path = bad_config(tmp_path)
    cli = command(str(path), {}, tmp_path / "cli")
    assert cli.returncode == 2
    with pytest.raises(solvent.ConfigError) as e:
        solvent.run(path, output=tmp_path / "py")
    assert e.value.exit_code == 2
    line = next(i for i, s in enumerate(path.read_text().splitlines(), 1) if "stpes" in s)
    # Located at the value (column 9), as the command locates it.
    assert e.value.problems == [f"{path}:{line}:9: [integrator] (integrator 'imex-trapezoid'): "
                                "unknown key 'stpes'; did you mean 'steps'?"]
    assert [f"error: {p}" for p in e.value.problems] == cli.stderr.splitlines()[:-1]
    assert not (tmp_path / "py").exists()  # a refused configuration leaves no folder


def test_a_bad_set_value_names_it(tmp_path):
    with pytest.raises(solvent.ConfigError) as e:
        solvent.run(A1D, set={"model.M": 2}, output=tmp_path / "py")
    assert e.value.problems == ["--set: [model] (model 'angiogenesis-1d'): key 'M' value 2 "
                                "must be >= 3"]


def test_a_missing_plugin_is_a_plugin_error(tmp_path):
    with pytest.raises(solvent.ConfigError) as e:
        solvent.run(A1D, set={"linear_solver.type": "no-such-solver"}, output=tmp_path / "py")
    assert "no-such-solver" in str(e.value)


def test_an_unconverged_steady_solve_raises_not_converged(tmp_path):
    settings = dict(SMALL_GRID, **{"linear_solver.matm.max_iterations": 1})
    cli = command(POISSON, settings, tmp_path / "cli")
    with pytest.raises(solvent.NotConvergedError) as e:
        solvent.run(POISSON, set=settings, output=tmp_path / "py")
    assert cli.returncode == e.value.exit_code == 6
    assert solvent.open(tmp_path / "py").status == "failed"


def test_a_sweep_runs_and_reads_back_its_table(tmp_path):
    sweep = os.path.join(SOURCE, "config", "sweep-angiogenesis-1d.toml")
    result = solvent.run(sweep, set={"integrator.steps": 5, "model.M": 20}, output=tmp_path / "s")
    assert list(result.sweep["status"]) == ["ok"] * 6
    assert sorted(set(result.sweep["model.parameters.k1"])) == [0.5, 1.0, 2.0]
    assert [m.status for m in result.members] == ["completed"] * 6


def test_ctrl_c_raises_keyboard_interrupt_after_the_step_with_outputs_kept(tmp_path):
    # A run long enough to be stopped part way, in a Python process of its own.
    out = tmp_path / "py"
    script = (f"import solvent\n"
              f"try:\n"
              f"    solvent.run({A1D!r}, set={{'integrator.steps': 100000, 'model.M': 50}}, "
              f"output={str(out)!r})\n"
              f"except KeyboardInterrupt as e:\n"
              f"    print('KeyboardInterrupt:', e)\n")
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    partial = out / "observables.csv.partial"
    while child.poll() is None and (not partial.exists() or
                                    len(partial.read_text().splitlines()) < 5):
        time.sleep(0.01)
    child.send_signal(signal.SIGINT)
    said, _ = child.communicate(timeout=60)
    assert child.returncode == 0
    assert said.startswith("KeyboardInterrupt: interrupted by SIGINT after step ")
    result = solvent.open(out)
    assert result.status == "interrupted"
    steps = result.record["result"]["steps"]
    assert 4 <= steps < 100000
    assert len(result.observables) == steps + 1  # every completed step kept, step 0 included


def test_a_vtkhdf_field_reads_back_as_the_vti_one(tmp_path):
    vti = solvent.run(POISSON, set=SMALL_GRID, output=tmp_path / "vti").solution["u"]
    try:
        hdf = solvent.run(POISSON, set=dict(SMALL_GRID, **{"output.format": "vtkhdf"}),
                          output=tmp_path / "hdf")
    except solvent.ConfigError as e:
        pytest.skip(f"this build writes no VTKHDF: {e}")
    assert (tmp_path / "hdf" / "solution.vtkhdf").is_file()
    assert np.array_equal(hdf.solution["u"], vti)


def test_a_communicator_must_be_one_and_a_sweep_takes_none(tmp_path):
    with pytest.raises(solvent.ConfigError) as e:
        solvent.run(A1D, set=SHORT, output=tmp_path / "a", comm=3)
    assert str(e.value) == "comm: an mpi4py communicator (mpi4py.MPI.Comm), not a int"
    with pytest.raises(solvent.ConfigError) as e:
        solvent.run(os.path.join(SOURCE, "config", "sweep-angiogenesis-1d.toml"), comm=object())
    assert str(e.value) == ("comm: a sweep runs its members as processes of the solvent "
                            "command, not on the caller's ranks; run it without comm")
    assert not os.path.exists(tmp_path / "a")
