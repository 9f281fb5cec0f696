#!/usr/bin/python3
"""Reads Solvent's field files with readers that are not Solvent's: Debian's VTK
(python3-vtk9: vtkXMLImageDataReader, vtkXMLPImageDataReader, vtkHDFReader) and h5py.

  read_fields.py compare FILE REFERENCE [--float32]
      FILE and REFERENCE: .vti, .pvti or .vtkhdf (a .vtkhdf is read twice, by vtkHDFReader and
      by h5py, and both must agree). Same dimensions, origin and spacing, the same component
      names, and every value equal bit for bit to the reference's (with --float32: to the
      reference's rounded to float32, as the solver's float32 output must be).
  read_fields.py time FILE
      prints the file's TimeValue (field data), read by VTK (and h5py for .vtkhdf); FILE may
      also be a .vtp (lines).
  read_fields.py series FILE.pvd
      prints "time file" per data set of a .pvd, read by Python's XML parser, and checks that
      each file's own TimeValue, read by VTK, is the time the series gives it.

Exit 0 when all holds, 1 with the reason otherwise. Run with Debian's /usr/bin/python3 (the
one python3-vtk9 and python3-h5py install into)."""
import os
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np
import vtk
from vtk.util.numpy_support import vtk_to_numpy


def fail(why):
    print(f"FAIL: {why}")
    sys.exit(1)


def vtk_reader(path):
    ext = os.path.splitext(path)[1]
    readers = {".vti": vtk.vtkXMLImageDataReader, ".pvti": vtk.vtkXMLPImageDataReader,
               ".vtkhdf": vtk.vtkHDFReader, ".vtp": vtk.vtkXMLPolyDataReader}
    if ext not in readers:
        fail(f"{path}: not a field file this reads")
    if not os.path.isfile(path):
        fail(f"{path}: no such file")
    r = readers[ext]()
    r.SetFileName(path)
    r.Update()
    return r.GetOutput()


def read_vtk(path):
    """(dimensions, origin, spacing, {name: values, axis 1 fastest})."""
    image = vtk_reader(path)
    pd = image.GetPointData()
    arrays = {pd.GetArrayName(i): vtk_to_numpy(pd.GetArray(i)).copy()
              for i in range(pd.GetNumberOfArrays())}
    if not arrays:
        fail(f"{path}: VTK read no point data")
    return (tuple(image.GetDimensions()), tuple(image.GetOrigin()), tuple(image.GetSpacing()),
            arrays)


def read_h5py(path):
    """The same from the HDF5 file itself: VTKHDF's attributes and PointData datasets."""
    with h5py.File(path, "r") as f:
        g = f["VTKHDF"]
        if g.attrs["Type"] != b"ImageData" or list(g.attrs["Version"]) != [1, 0]:
            fail(f"{path}: not VTKHDF 1.0 ImageData")
        e = g.attrs["WholeExtent"]
        dims = (e[1] - e[0] + 1, e[3] - e[2] + 1, e[5] - e[4] + 1)
        arrays = {}
        for name, d in g["PointData"].items():
            if d.shape != dims[::-1]:
                fail(f"{path}: {name} has shape {d.shape}, expected {dims[::-1]}")
            arrays[name] = d[...].ravel()
        return (tuple(int(n) for n in dims), tuple(g.attrs["Origin"]), tuple(g.attrs["Spacing"]),
                arrays)


def readings(path):
    yield "VTK", read_vtk(path)
    if path.endswith(".vtkhdf"):
        yield "h5py", read_h5py(path)


def compare(path, reference, float32):
    rdims, rorigin, rspacing, rarrays = read_vtk(reference)
    for reader, (dims, origin, spacing, arrays) in readings(path):
        what = f"{path} ({reader})"
        if dims != rdims:
            fail(f"{what}: dimensions {dims}, the reference's {rdims}")
        if not np.allclose(origin, rorigin, rtol=0, atol=1e-12) or \
                not np.allclose(spacing, rspacing, rtol=1e-12, atol=0):
            fail(f"{what}: origin {origin} spacing {spacing}, the reference's {rorigin} {rspacing}")
        if sorted(arrays) != sorted(rarrays):
            fail(f"{what}: components {sorted(arrays)}, the reference's {sorted(rarrays)}")
        for name, ref in rarrays.items():
            expected = ref.astype(np.float32) if float32 else ref
            got = arrays[name]
            if got.dtype != expected.dtype:
                fail(f"{what}: {name} is {got.dtype}, expected {expected.dtype}")
            if not np.array_equal(got.view(np.uint8), expected.view(np.uint8)):
                bad = np.flatnonzero(got != expected)
                fail(f"{what}: {name} differs from the reference at {len(bad)} nodes "
                     f"(first {bad[:5]}: {got[bad[:5]]} vs {expected[bad[:5]]})")
        print(f"{what}: {len(rarrays)} components of {np.prod(dims)} nodes equal to {reference}"
              f"{' in float32' if float32 else ''}")


def time_of(path):
    image = vtk_reader(path)
    t = image.GetFieldData().GetArray("TimeValue")
    times = [] if t is None else [t.GetValue(0)]
    if path.endswith(".vtkhdf"):
        # VTK 9.1's vtkHDFReader reads no field data; h5py reads the file's TimeValue.
        with h5py.File(path, "r") as f:
            times.append(float(f["VTKHDF/FieldData/TimeValue"][0]))
    if not times or any(x != times[0] for x in times):
        fail(f"{path}: TimeValue {times}")
    return times[0]


def series(pvd):
    folder = os.path.dirname(pvd)
    sets = ET.parse(pvd).getroot().find("Collection").findall("DataSet")
    if not sets:
        fail(f"{pvd}: no data sets")
    for s in sets:
        t, f = float(s.get("timestep")), s.get("file")
        own = time_of(os.path.join(folder, f))
        if own != t:
            fail(f"{pvd}: {f} has TimeValue {own}, the series says {t}")
        print(f"{t!r} {f}")


def main(args):
    if len(args) >= 3 and args[0] == "compare":
        return compare(args[1], args[2], "--float32" in args[3:])
    if len(args) == 2 and args[0] == "time":
        return print(repr(time_of(args[1])))
    if len(args) == 2 and args[0] == "series":
        return series(args[1])
    fail(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
