"""The core's errors as Python exceptions: one class per exit code of the `solvent` command,
each carrying the core's message unchanged (file:line:col where there is one).

An interrupted run (Ctrl-C) raises Python's own KeyboardInterrupt after the step in flight,
with the run's outputs kept, as the command ends with 130."""


class SolventError(Exception):
    """Any failure the core reports; `exit_code` is the command's exit status for it."""

    exit_code = 1

    def __init__(self, message, exit_code=None, problems=None):
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code
        # Every problem found, one located message each (a configuration error lists all).
        self.problems = list(problems) if problems else [message]


class ConfigError(SolventError, ValueError):
    """Bad configuration or setting: an unknown key, a wrong type, a value out of range."""

    exit_code = 2


class PluginError(SolventError):
    """A plugin that cannot be found or loaded, or of the wrong ABI or kind."""

    exit_code = 3


class InputError(SolventError):
    """A malformed input file or checkpoint, named with its file and line."""

    exit_code = 4


class SolverError(SolventError, ArithmeticError):
    """A solver could not produce a solution: a singular pivot, an unusable operator."""

    exit_code = 5


class NotConvergedError(SolventError, ArithmeticError):
    """An iterative solve that did not reach its tolerance, or a run that diverged. From
    LinearSolver.solve it carries the best iterate `x` and the statistics `info`."""

    exit_code = 6

    def __init__(self, message, exit_code=None, problems=None, x=None, info=None):
        super().__init__(message, exit_code, problems)
        self.x = x
        self.info = info


class DeviceUnavailableError(SolventError):
    """A device plugin found no usable device."""

    exit_code = 7


_BY_CODE = {c.exit_code: c for c in (ConfigError, PluginError, InputError, SolverError,
                                      NotConvergedError, DeviceUnavailableError)}


def class_for_exit_code(code):
    """The exception class of an exit code (the binding raises through it)."""
    return _BY_CODE.get(code, SolventError)
