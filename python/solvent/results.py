"""A run's folder read back: the record, the resolved configuration, the observables and
the fields, as Python and NumPy objects. The same for a folder an earlier run (or the
command) wrote: solvent.open(path). A sweep's folder gives its table and its members."""

import builtins
import glob
import os
import tomllib
import xml.etree.ElementTree as ET

import numpy as np

from .errors import InputError


def _table(path):
    """A CSV file the core wrote (a header line, then numbers written with 17 digits, so
    parsing gives back the bits): a pandas DataFrame when pandas is installed, else a NumPy
    structured array with one named field a column."""
    try:
        import pandas
    except ImportError:
        pandas = None
    if pandas is not None:
        return pandas.read_csv(path, float_precision="round_trip")
    # deletechars="": the columns keep their names as written ("model.parameters.k1").
    return np.genfromtxt(path, delimiter=",", names=True, dtype=None, encoding="utf-8",
                         deletechars="")


_VTK_TYPES = {"Float64": "<f8", "Float32": "<f4", "Int32": "<i4", "Int64": "<i8",
              "UInt8": "u1", "UInt32": "<u4", "UInt64": "<u8"}
_RAW = b'<AppendedData encoding="raw">'


def read_vtk(path):
    """The point arrays of one VTK XML file the core writes (.vti, .vtr: raw appended
    values or ASCII text), as {name: array} in x-fastest order reshaped to the piece's
    (n3, n2, n1) nodes, a last axis for vector components. The raw values are NumPy views of
    the file's bytes (no copy)."""
    data = builtins.open(path, "rb").read()
    at = data.find(_RAW)
    appended = None
    if at >= 0:
        appended = memoryview(data)[data.index(b"_", at + len(_RAW)) + 1:]
        data = data[:at] + b"</VTKFile>"
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        raise InputError(f"{path}:{e.position[0]}: not a VTK XML file: {e}") from None
    piece = root.find(f"{root.get('type')}/Piece")
    if piece is None:
        raise InputError(f"{path}: no <Piece> in the {root.get('type')} file")
    extent = [int(v) for v in piece.get("Extent").split()]
    shape = tuple(extent[2 * d + 1] - extent[2 * d] + 1 for d in (2, 1, 0))
    fields = {}
    point_data = piece.find("PointData")
    for a in [] if point_data is None else point_data.findall("DataArray"):
        dtype = np.dtype(_VTK_TYPES[a.get("type")])
        components = int(a.get("NumberOfComponents", "1"))
        if a.get("format") == "appended":
            if appended is None:
                raise InputError(f"{path}: array {a.get('Name')} is appended, the file has no data")
            offset = int(a.get("offset"))
            size = int(np.frombuffer(appended, "<u8", 1, offset)[0])
            values = np.frombuffer(appended, dtype, size // dtype.itemsize, offset + 8)
        else:
            values = np.array((a.text or "").split(), dtype=dtype)
        n = int(np.prod(shape))
        if values.size != n * components:
            raise InputError(f"{path}: array {a.get('Name')} has {values.size} values, its "
                             f"extent {extent} holds {n * components}")
        fields[a.get("Name")] = values.reshape(shape + ((components,) if components > 1 else ()))
    return fields


def read_pvti(path):
    """A field written in pieces over ranks (.pvti): the pieces put together, {name: array
    of shape (n3, n2, n1)}."""
    root = ET.parse(path).getroot()
    image = root.find("PImageData")
    whole = [int(v) for v in image.get("WholeExtent").split()]
    shape = tuple(whole[2 * d + 1] - whole[2 * d] + 1 for d in (2, 1, 0))
    out = {}
    for p in image.findall("Piece"):
        e = [int(v) for v in p.get("Extent").split()]
        for name, values in read_vtk(os.path.join(os.path.dirname(path), p.get("Source"))).items():
            full = out.setdefault(name, np.empty(shape + values.shape[3:], values.dtype))
            full[e[4]:e[5] + 1, e[2]:e[3] + 1, e[0]:e[1] + 1] = values
    return out


def read_vtkhdf(path):
    """A field in one VTKHDF file ([output] format = "vtkhdf"), through h5py
    (python3-h5py): {name: array of shape (n3, n2, n1)}, as the core writes its datasets."""
    try:
        import h5py
    except ImportError:
        raise InputError(f"{path}: reading VTKHDF needs h5py (python3-h5py)") from None
    try:
        with h5py.File(path, "r") as f:
            return {name: d[()] for name, d in f["VTKHDF"]["PointData"].items()}
    except (OSError, KeyError) as e:
        raise InputError(f"{path}: not a VTKHDF image of Solvent's: {e}") from None


def _field_file(path):
    ext = os.path.splitext(path)[1]
    if ext == ".csv":
        return _table(path)
    if ext == ".pvti":
        return read_pvti(path)
    if ext == ".vtkhdf":
        return read_vtkhdf(path)
    return read_vtk(path)


class Result:
    """One run's folder. `record` and `config` are dicts (record.toml, config.toml),
    `status` the record's ("completed", "failed", "interrupted", "running"),
    `observables` a DataFrame or structured array (observables.csv), `solution` the
    solution's fields where the run wrote one, `profiles` {step: path} and
    `profile(step)` its fields. A sweep's folder: `sweep` (sweep.csv) and `members`."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        record = os.path.join(self.path, "record.toml")
        if not os.path.isfile(record):
            raise InputError(f"{self.path}: no record.toml (not a run's or a sweep's folder)")
        with builtins.open(record, "rb") as f:
            try:
                self.record = tomllib.load(f)
            except tomllib.TOMLDecodeError as e:
                raise InputError(f"{record}: {e}") from None
        config = os.path.join(self.path, "config.toml")
        self.config = None
        if os.path.isfile(config):
            with builtins.open(config, "rb") as f:
                self.config = tomllib.load(f)

    def __repr__(self):
        return f"solvent.Result({self.path!r}, status={self.status!r})"

    @property
    def status(self):
        return self.record.get("run", self.record.get("sweep", {})).get("status")

    @property
    def observables(self):
        path = os.path.join(self.path, "observables.csv")
        return _table(path) if os.path.isfile(path) else None

    @property
    def solution(self):
        for name in ("solution.vtkhdf", "solution.pvti", "solution.vti", "solution.vtr",
                     "solution.csv", "unconverged_iterate.vtkhdf",
                     "unconverged_iterate.vti", "unconverged_iterate.vtr",
                     "unconverged_iterate.csv"):
            path = os.path.join(self.path, name)
            if os.path.isfile(path):
                return _field_file(path)
        return None

    @property
    def profiles(self):
        found = {}
        for path in sorted(glob.glob(os.path.join(self.path, "profiles", "step_*.*"))):
            stem = os.path.splitext(os.path.basename(path))[0]
            found[int(stem[len("step_"):])] = path
        return found

    def profile(self, step):
        return _field_file(self.profiles[step])

    @property
    def sweep(self):
        path = os.path.join(self.path, "sweep.csv")
        return _table(path) if os.path.isfile(path) else None

    @property
    def members(self):
        return [Result(d) for d in sorted(glob.glob(os.path.join(self.path, "members", "*")))
                if os.path.isfile(os.path.join(d, "record.toml"))]


def open(path):  # noqa: A001 (the package's name for reading a folder back)
    """A run's (or a sweep's) folder read back as a Result."""
    return Result(path)
