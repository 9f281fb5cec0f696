#!/usr/bin/env python3
"""Reads Solvent's VTK ImageData output back without a VTK library.

  read_pvti.py compare FILE.pvti REFERENCE.vti [--rtol R]
      reassembles FILE.pvti's pieces into one field in global order and compares it with
      REFERENCE.vti (written by one rank): same whole extent, origin and spacing, and every
      component equal to R (default 1e-9) relative to the reference's largest magnitude.
  read_pvti.py check FILE.pvti
      reassembles only.

Reassembling checks what ParaView relies on: every piece lies in the whole extent, has the
origin and spacing of the .pvti and the extent its <Piece> says, every node of the whole
extent is covered by some piece, and where pieces overlap (they share one layer of nodes
with their upper neighbours) they hold the same values, bit for bit. Exit 0 when all holds,
1 with the reason otherwise. Values are read as written: from raw appended data (a UInt64
byte count, then little-endian Float64 or Float32 values) or parsed from inline text."""
import array
import os
import struct
import sys
import xml.etree.ElementTree as ET

RAW = b'<AppendedData encoding="raw">'


def parse_vtk(path):
    """(XML root, the raw appended data after its '_', or None)."""
    data = open(path, "rb").read()
    at = data.find(RAW)
    if at < 0:
        return ET.fromstring(data), None
    start = data.index(b"_", at + len(RAW)) + 1
    return ET.fromstring(data[:at] + b"</VTKFile>"), data[start:]


def array_values(path, a, appended):
    """The values of DataArray `a`, as Python floats."""
    kind = a.get("type")
    if kind not in ("Float64", "Float32"):
        fail(f"{path}: array {a.get('Name')} of type {kind}")
    if a.get("format") == "appended":
        if appended is None:
            fail(f"{path}: array {a.get('Name')} is appended, but the file has no raw data")
        offset = int(a.get("offset"))
        (size,) = struct.unpack_from("<Q", appended, offset)
        values = array.array("d" if kind == "Float64" else "f")
        values.frombytes(appended[offset + 8:offset + 8 + size])
        if sys.byteorder != "little":
            values.byteswap()
        return list(values)
    if a.get("format") != "ascii":
        fail(f"{path}: array {a.get('Name')} in format {a.get('format')}")
    return floats(a.text or "")


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def ints(text):
    return [int(v) for v in text.split()]


def floats(text):
    return [float(v) for v in text.split()]


def read_vti(path):
    """(whole extent, piece extent, origin, spacing, {component: values in x-fastest order})."""
    root, appended = parse_vtk(path)
    if root.get("type") != "ImageData":
        fail(f"{path}: not a VTK ImageData file")
    image = root.find("ImageData")
    pieces = image.findall("Piece")
    if len(pieces) != 1:
        fail(f"{path}: {len(pieces)} pieces, expected 1")
    extent = ints(pieces[0].get("Extent"))
    n = 1
    for d in range(3):
        n *= extent[2 * d + 1] - extent[2 * d] + 1
    arrays = {}
    for a in pieces[0].find("PointData").findall("DataArray"):
        values = array_values(path, a, appended)
        if len(values) != n:
            fail(f"{path}: array {a.get('Name')} has {len(values)} values, extent {extent} has {n}")
        arrays[a.get("Name")] = values
    return (ints(image.get("WholeExtent")), extent, floats(image.get("Origin")),
            floats(image.get("Spacing")), arrays)


def read_pvti(path):
    """(whole extent, origin, spacing, {component: values over the whole extent})."""
    root, _ = parse_vtk(path)
    if root.get("type") != "PImageData":
        fail(f"{path}: not a VTK PImageData file")
    image = root.find("PImageData")
    whole = ints(image.get("WholeExtent"))
    origin, spacing = floats(image.get("Origin")), floats(image.get("Spacing"))
    names = [a.get("Name") for a in image.find("PPointData").findall("PDataArray")]
    if not names:
        fail(f"{path}: no PDataArray")
    lo, hi = whole[0::2], whole[1::2]
    if lo != [0, 0, 0]:
        fail(f"{path}: WholeExtent {whole} does not start at 0")
    n = [hi[d] + 1 for d in range(3)]
    total = n[0] * n[1] * n[2]
    field = {name: [None] * total for name in names}
    pieces = image.findall("Piece")
    if not pieces:
        fail(f"{path}: no pieces")
    folder = os.path.dirname(path)
    for p in pieces:
        source = os.path.join(folder, p.get("Source"))
        extent = ints(p.get("Extent"))
        if not os.path.isfile(source):
            fail(f"{path}: piece {source} does not exist")
        _, own_extent, own_origin, own_spacing, arrays = read_vti(source)
        if own_extent != extent:
            fail(f"{source}: extent {own_extent}, the .pvti says {extent}")
        if own_origin != origin or own_spacing != spacing:
            fail(f"{source}: origin {own_origin} spacing {own_spacing}, the .pvti says "
                 f"{origin} {spacing}")
        for d in range(3):
            if not (0 <= extent[2 * d] <= extent[2 * d + 1] <= hi[d]):
                fail(f"{source}: extent {extent} leaves the whole extent {whole}")
        if sorted(arrays) != sorted(names):
            fail(f"{source}: arrays {sorted(arrays)}, the .pvti lists {sorted(names)}")
        e = [extent[2 * d + 1] - extent[2 * d] + 1 for d in range(3)]
        for name in names:
            values, out = arrays[name], field[name]
            for k in range(e[2]):
                for j in range(e[1]):
                    for i in range(e[0]):
                        g = (i + extent[0]) + n[0] * ((j + extent[2]) + n[1] * (k + extent[4]))
                        v = values[i + e[0] * (j + e[1] * k)]
                        if out[g] is not None and out[g] != v:
                            fail(f"{source}: {name} at node ({i + extent[0]}, {j + extent[2]}, "
                                 f"{k + extent[4]}) is {v!r}, another piece has {out[g]!r}")
                        out[g] = v
    for name in names:
        missing = [g for g, v in enumerate(field[name]) if v is None]
        if missing:
            g = missing[0]
            fail(f"{path}: {len(missing)} nodes in no piece, the first "
                 f"({g % n[0]}, {g // n[0] % n[1]}, {g // (n[0] * n[1])})")
    return whole, origin, spacing, field


def main(argv):
    if len(argv) >= 2 and argv[0] == "check":
        whole, _, _, field = read_pvti(argv[1])
        print(f"{argv[1]}: whole extent {whole}, {len(field)} component(s), every node covered")
        return 0
    if len(argv) < 3 or argv[0] != "compare":
        print(__doc__)
        return 2
    rtol = float(argv[4]) if len(argv) >= 5 and argv[3] == "--rtol" else 1e-9
    whole, origin, spacing, field = read_pvti(argv[1])
    ref_whole, ref_extent, ref_origin, ref_spacing, ref = read_vti(argv[2])
    if whole != ref_whole or whole != ref_extent:
        fail(f"whole extent {whole}, the reference's {ref_whole} (piece {ref_extent})")
    for d in range(3):
        if abs(origin[d] - ref_origin[d]) > 1e-12 * max(1.0, abs(ref_origin[d])) or \
           abs(spacing[d] - ref_spacing[d]) > 1e-12 * abs(ref_spacing[d]):
            fail(f"origin {origin} spacing {spacing}, the reference's {ref_origin} {ref_spacing}")
    if sorted(field) != sorted(ref):
        fail(f"components {sorted(field)}, the reference's {sorted(ref)}")
    for name, values in field.items():
        scale = max(abs(v) for v in ref[name]) or 1.0
        worst = max(range(len(values)), key=lambda g: abs(values[g] - ref[name][g]))
        diff = abs(values[worst] - ref[name][worst])
        if diff > rtol * scale:
            fail(f"{name} differs by {diff:.3g} (relative {diff / scale:.3g} > {rtol:g}) at "
                 f"node {worst}: {values[worst]!r}, the reference {ref[name][worst]!r}")
        print(f"{name}: largest difference {diff / scale:.3g} relative, over {len(values)} nodes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
