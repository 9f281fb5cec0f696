#!/usr/bin/env python3
"""Runs the shipped sweep (config/sweep-angiogenesis-1d.toml) and plots the final max_C of
each member against the swept k1, one line per a3, with matplotlib (python3-matplotlib),
into OUT/max_C-k1.png (no window: it runs where there is no display, too).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/sweep_plot.py [OUT]"""
import os
import sys

import matplotlib.pyplot as plt

import solvent

# The repository's config/, wherever the script is run from.
CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "config",
                      "sweep-angiogenesis-1d.toml")
out = sys.argv[1] if len(sys.argv) > 1 else "out/sweep-angiogenesis-1d"
result = solvent.run(CONFIG, output=out, overwrite=True)
table = result.sweep  # sweep.csv: a row a member
k1, a3 = table["model.parameters.k1"], table["model.parameters.a3"]
for value in sorted(set(a3)):
    rows = [i for i in range(len(k1)) if a3[i] == value]
    plt.plot([k1[i] for i in rows], [table["max_C"][i] for i in rows], "o-", label=f"a3 = {value}")
plt.xlabel("k1")
plt.ylabel("final max_C")
plt.legend()
plt.savefig(f"{out}/max_C-k1.png", dpi=120)
print(f"{len(k1)} members; plot in {out}/max_C-k1.png")
