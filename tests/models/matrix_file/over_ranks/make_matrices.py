"""Matrix Market files for the runs over ranks: the five-point Laplacian of a grid with its
unknowns numbered in a shuffled order (so that contiguous index ranges would cut most
couplings), shifted to be symmetric positive definite, and a file malformed at a known line.
usage: make_matrices.py DIR"""
import random
import sys

out = sys.argv[1]
nx, ny = 24, 20
n = nx * ny
label = list(range(n))
random.Random(3).shuffle(label)
entries = []
for y in range(ny):
    for x in range(nx):
        i = label[x + nx * y]
        entries.append((i, i, 4.02))
        for xx, yy in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if 0 <= xx < nx and 0 <= yy < ny:
                entries.append((i, label[xx + nx * yy], -1.0))
with open(f"{out}/laplacian.mtx", "w") as f:
    f.write("%%MatrixMarket matrix coordinate real general\n")
    f.write(f"{n} {n} {len(entries)}\n")
    for i, j, v in entries:
        f.write(f"{i + 1} {j + 1} {v!r}\n")
with open(f"{out}/bad.mtx", "w") as f:
    f.write("%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 2.0\n2 2 x\n3 3 1.0\n")
