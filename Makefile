SHELL := /bin/bash
# The two commands of the README. Each installs what is missing, builds, and then
#   make run   runs the main experiment (the 1D angiogenesis validation run) and plots it,
#              having built only what that run loads: the command (with the core) and the
#              plugins CONFIG names (RUN_TARGETS), not the tests, benchmarks or examples;
#   make test  builds everything and runs the whole test suite.
# Both share one build folder: `make test` after `make run` builds the rest.
#   make sanitize  builds everything (CUDA off) with AddressSanitizer and
#              UndefinedBehaviorSanitizer in build-asan (CMake preset asan) and runs the whole
#              test suite there, every MPI rank included; CTEST_ARGS picks tests
#              (e.g. CTEST_ARGS="-L mpi"). About an hour on 2 cores, so not part of CI.
BUILD ?= build
JOBS  ?= $(shell nproc)
CONFIG ?= config/angiogenesis-1d.toml
OUT   ?= out/angiogenesis-1d
# The targets CONFIG needs: the command, and the model, integrator and linear solver it names
# (the plot needs gnuplot only). Another CONFIG: `make run CONFIG=... RUN_TARGETS=...`, or
# `make build` first, which builds every plugin.
RUN_TARGETS ?= solvent angiogenesis-1d imex-trapezoid gepp-cpu
# The lent GPU machines are Hopper (sm_90); CMake's own default builds sm_80 too.
CUDA_ARCH ?= 90
# CI turns warnings into errors (CUDA host code included); a user's build only reports them.
SOLVENT_WARNINGS_AS_ERRORS ?= OFF

.PHONY: run test build configure deps sanitize

deps:
	@scripts/install-deps

configure: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=$(CUDA_ARCH) -DSOLVENT_WARNINGS_AS_ERRORS=$(SOLVENT_WARNINGS_AS_ERRORS) > $(BUILD).configure.log 2>&1 || { cat $(BUILD).configure.log; exit 1; }
	@grep -E "Solvent:" $(BUILD).configure.log || true

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

run: configure
	@cmake --build $(BUILD) -j $(JOBS) --target $(RUN_TARGETS)
	$(BUILD)/bin/solvent run $(CONFIG) --overwrite --output $(OUT)
	@if [ -x scripts/plot-profiles ]; then scripts/plot-profiles $(OUT) && echo "plot: $(OUT)/profiles.png"; fi
	@echo "final observables (t = 1):" && tail -n 1 $(OUT)/observables.csv | tr ',' '\n' | paste -d= <(head -n 1 $(OUT)/observables.csv | tr ',' '\n') - | tr '\n' ' ' && echo

test: build
	@# Passive OpenMP waits: with tests side by side, spinning threads starve each other.
	cd $(BUILD) && OMP_WAIT_POLICY=PASSIVE ctest --output-on-failure -j $(JOBS)

# ccache where there is one: the instrumented objects differ from the release build's, but a
# second `make sanitize` after a small change rebuilds little. The sanitizer options every
# test (and every rank mpirun starts) runs with are set by the build: cmake/SolventTesting.cmake.
sanitize: deps
	@cmake --preset asan $(if $(shell command -v ccache),-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache) > build-asan.configure.log 2>&1 || { cat build-asan.configure.log; exit 1; }
	@grep -E "Solvent:" build-asan.configure.log || true
	@cmake --build --preset asan -j $(JOBS)
	ctest --preset asan -j $(JOBS) $(CTEST_ARGS)
