"""A plugin path of libraries that abort, crash, exit or throw (copies of tests/core's
fixtures; the one that hangs is left out, since each listing would wait for it): the
interpreter survives listing it, each is skipped with its reason as the command skips it,
and a plugin whose constructor throws something foreign is a PluginError naming it."""
import atexit
import os
import shutil
import tempfile

import pytest

import solvent

FIXTURES = os.environ["SOLVENT_MISBEHAVING_DIR"]
FOLDER = tempfile.mkdtemp(prefix="solvent-hostile-")
atexit.register(shutil.rmtree, FOLDER, True)
BROKEN = ["abort-on-load", "segfault-on-load", "exit-on-load", "throw-on-load"]
for name in BROKEN + ["throwing-constructor"]:
    shutil.copy(os.path.join(FIXTURES, f"libsolvent-{name}.so"), FOLDER)
# Read when the first plugin is made, which is after this.
os.environ["SOLVENT_PLUGIN_PATH"] = FOLDER + ":" + os.environ["SOLVENT_PLUGIN_PATH"]


def test_listing_survives_every_broken_library():
    listed = solvent.plugins()
    for name in BROKEN:
        library = os.path.join(FOLDER, f"libsolvent-{name}.so")
        assert any(reason.startswith(library) for reason in listed["skipped"]), name
    names = [p["name"] for p in listed["plugins"]]
    assert "throwing-constructor" in names and "lapack" in names


def test_a_foreign_exception_from_a_constructor_is_a_plugin_error():
    with pytest.raises(solvent.PluginError) as e:
        solvent.LinearSolver("throwing-constructor")
    library = os.path.join(FOLDER, "libsolvent-throwing-constructor.so")
    assert str(e.value) == (f"linear_solver 'throwing-constructor' ({library}) threw an "
                            "exception that is not a std::exception as it was made")
    assert e.value.exit_code == 3
