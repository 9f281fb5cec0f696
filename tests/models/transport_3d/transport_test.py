"""transport-3d advanced by implicit-stencil7, through the solvent command: the observed
orders in time (backward Euler 1, BDF2 and Crank-Nicolson 2) and in space (2) on the
manufactured solution, MATM against CG, the warm start cutting the iterations, and (where
MPI is built) two ranks against one.

Each measured figure is also compared with the one docs/models/transport-3d.md quotes.

usage: transport_test.py SOLVENT CONFIG WORK [MPIEXEC]"""
import csv
import math
import os
import re
import shutil
import subprocess
import sys

solvent, config, work = sys.argv[1:4]
mpiexec = sys.argv[4] if len(sys.argv) > 4 else ""
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(name, *settings, ranks=0):
    out = os.path.join(work, name)
    cmd = [solvent, "run", config, "--output", out]
    for s in settings:
        cmd += ["--set", s]
    if ranks:
        cmd = [mpiexec, "-n", str(ranks), "--oversubscribe"] + cmd
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        sys.exit(f"{name}: exit {done.returncode}\n{done.stdout}\n{done.stderr}")
    with open(os.path.join(out, "observables.csv")) as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(out, "record.toml")) as f:
        facts = dict(re.findall(r"^(\w+) = '([^']*)'$", f.read(), re.M))
    return rows, facts


def last(rows, key):
    return float(rows[-1][key])


DOC = "docs/models/transport-3d.md"
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", DOC)) as f:
    doc = f.read()


def check_quoted(before, value):
    """value is the figure the model's page writes right after `before`, to its digits;
    returns `before` followed by that figure."""
    at = doc.find(before)
    if at < 0:
        sys.exit(f"{DOC} lacks: {before}")
    figure = re.match(r"[0-9][0-9.e-]*[0-9]|[0-9]", doc[at + len(before):]).group(0)
    mantissa = figure.split("e")[0]
    digits = len(mantissa.split(".")[1]) if "." in mantissa else 0
    written = format(value, f".{digits}{'e' if 'e' in figure else 'f'}")
    written = re.sub(r"e([+-])0*([0-9])", lambda m: "e" + m.group(1).replace("+", "") + m.group(2),
                     written)
    check(written == figure, f"{DOC} quotes {figure} after '{before}': measured {written}")
    return before + figure


def quoted_bound(before):
    """The bound the model's page writes right after `before` for a round-off figure."""
    at = doc.find(before)
    if at < 0:
        sys.exit(f"{DOC} lacks: {before}")
    return float(re.match(r"[0-9][0-9.e-]*[0-9]", doc[at + len(before):]).group(0))


# Order in time: the mass h^3 sum u is a linear functional of the state, so its change
# between dt, dt/2 and dt/4 (to the same t = 0.4, on one grid) falls as dt^p; the spatial
# error, the same for every dt, cancels. From dt = 0.025 on: the steps of 0.1 and 0.05 do
# not yet resolve the initial layer of the stiff modes, where BDF2's differences still grow.
def time_order(scheme):
    mass = []
    for k in range(3):
        rows, _ = run(f"time-{scheme}-{k}", f'integrator.scheme="{scheme}"',
                      f"integrator.dt={0.025 / 2 ** k}", f"integrator.steps={16 * 2 ** k}")
        check(abs(last(rows, "t") - 0.4) < 1e-12, f"{scheme} {k}: ends at t = 0.4")
        mass.append(last(rows, "mass"))
    return math.log2((mass[0] - mass[1]) / (mass[1] - mass[2]))


quote = "in the differences):\n "
for scheme, order, name in (("backward-euler", 1.0, "backward Euler"), ("bdf2", 2.0, "BDF2"),
                            ("crank-nicolson", 2.0, "Crank-Nicolson")):
    p = time_order(scheme)
    check(abs(p - order) < 0.15, f"{scheme}: order in time {p:.3f}, expected {order}")
    quote = check_quoted(quote + " " + name + " ", p) + ","

# Order in space: BDF2 with dt small enough that the error is the grid's, on 9^3 and 17^3.
errors = []
for n in (9, 17):
    rows, _ = run(f"space-{n}", f"model.n1={n}", f"model.n2={n}", f"model.n3={n}",
                  "integrator.dt=0.01", "integrator.steps=20")
    errors.append(last(rows, "error_max"))
p = math.log2(errors[0] / errors[1])
check(1.8 < p < 2.3, f"order in space {p:.3f} (error_max {errors[0]:.3e}, {errors[1]:.3e})")
check_quoted(check_quoted("t = 0.2): error_max ", errors[0]) + " on 9^3, ", errors[1])
check_quoted("on 17^3,\n  order ", p)

# MATM and CG (Jacobi) solve the same layers: without convection A is symmetric.
matm, _ = run("matm", 'model.velocity="none"')
cg, _ = run("cg", 'model.velocity="none"', 'linear_solver.type="cg"',
            'preconditioner.type="jacobi"')
# Each stops at its own residual below 1e-12: they agree to round-off above that, within the
# bound the page states.
bound = quoted_bound("(no convection), each to a tolerance of 1e-12, agree within ")
d = abs(last(matm, "mass") - last(cg, "mass")) / abs(last(cg, "mass"))
check(d < bound, f"matm and cg: final mass within {d:.2e} (the page's bound {bound:g})")
d = abs(last(matm, "error_max") - last(cg, "error_max"))
check(d < bound, f"matm and cg: final error_max within {d:.2e} (the page's bound {bound:g})")

# The warm start: each layer's solve from the previous layer takes fewer iterations than
# from zero, and changes the answer only within the tolerance.
warm, warm_facts = run("warm", "integrator.dt=0.01")
cold, cold_facts = run("cold", "integrator.dt=0.01", "integrator.warm_start=false")
w, c = int(warm_facts["iterations_total"]), int(cold_facts["iterations_total"])
check(w < 0.9 * c, f"warm start: {w} iterations against {c} from zero")
check_quoted(check_quoted("the warm start takes ", w) +
             " MATM\n  iterations over 8 layers of dt = 0.01 against ", c)
d = abs(last(warm, "mass") - last(cold, "mass")) / abs(last(cold, "mass"))
check(d < 1e-10, f"warm and cold start: final mass within {d:.2e}")
check(warm_facts["solver_setups"] == "2", "bdf2: the solver set up twice (its start, its own)")
be, be_facts = run("setups-be", 'integrator.scheme="backward-euler"')
check(be_facts["solver_setups"] == "1", "backward Euler: the solver set up once")
check(len(warm) == 9 and all(int(r["iterations"]) > 0 for r in warm[1:]),
      "every layer's iterations recorded")

# Over two ranks: CG with Jacobi repeats the one-rank layers bit for bit (whole lines of
# axis 1 on every rank); MATM's pipelined sweeps to rounding.
if mpiexec:
    for solver, pc in (("cg", "jacobi"), ("matm", "none")):
        base = ['model.velocity="none"', f'linear_solver.type="{solver}"',
                f'preconditioner.type="{pc}"', 'model.domain="basin"', "model.n3=13"]
        one, _ = run(f"{solver}-n1", *base)
        two, two_facts = run(f"{solver}-n2", *base, ranks=2)
        check(two_facts.get("decomposition", "").endswith("over 2 ranks"),
              f"{solver}: the grid split over 2 ranks")
        same_its = [r["iterations"] for r in one] == [r["iterations"] for r in two]
        if solver == "cg":
            check(same_its, "cg over 2 ranks: the iterations of every layer as on one")
            check([r["error_max"] for r in one] == [r["error_max"] for r in two],
                  "cg over 2 ranks: error_max of every layer bit for bit")
        else:
            d = max(abs(float(a["error_max"]) - float(b["error_max"])) for a, b in zip(one, two))
            check(d < 1e-10, f"matm over 2 ranks: error_max within {d:.2e} of one rank's")

sys.exit(1 if failures else 0)
