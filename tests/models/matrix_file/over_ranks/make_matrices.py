"""Matrix Market files for the runs over ranks: the five-point Laplacian of a grid with its
unknowns numbered in a shuffled order (so that contiguous index ranges would cut most
couplings), shifted to be symmetric positive definite, with b = A x for x_i = 1 + i/n as a
vector file; a file malformed at a known line, a matrix that is not square and a vector of
the wrong length.
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
x = [1.0 + i / n for i in range(n)]
b = [0.0] * n
for i, j, v in entries:
    b[i] += v * x[j]
with open(f"{out}/laplacian-rhs.mtx", "w") as f:
    f.write(f"%%MatrixMarket matrix array real general\n{n} 1\n")
    f.writelines(f"{v!r}\n" for v in b)
with open(f"{out}/rectangular.mtx", "w") as f:
    f.write("%%MatrixMarket matrix coordinate real general\n3 2 2\n1 1 1.0\n3 2 1.0\n")
with open(f"{out}/short-rhs.mtx", "w") as f:
    f.write("%%MatrixMarket matrix array real general\n3 1\n1.0\n2.0\n3.0\n")
