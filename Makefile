SHELL := /bin/bash
# The two commands of the README. Each installs what is missing, builds, and then
#   make run   runs the main experiment (the 1D angiogenesis validation run) and plots it;
#   make test  runs the whole test suite.
BUILD ?= build
JOBS  ?= $(shell nproc)
CONFIG ?= config/angiogenesis-1d.toml
OUT   ?= out/angiogenesis-1d
# The lent GPU machines are Hopper (sm_90); CMake's own default builds sm_80 too.
CUDA_ARCH ?= 90
# CI turns warnings into errors (CUDA host code included); a user's build only reports them.
SOLVENT_WARNINGS_AS_ERRORS ?= OFF

.PHONY: run test build deps

deps:
	@scripts/install-deps

build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=$(CUDA_ARCH) -DSOLVENT_WARNINGS_AS_ERRORS=$(SOLVENT_WARNINGS_AS_ERRORS) > $(BUILD).configure.log 2>&1 || { cat $(BUILD).configure.log; exit 1; }
	@grep -E "Solvent:" $(BUILD).configure.log || true
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/bin/solvent run $(CONFIG) --overwrite --output $(OUT)
	@if [ -x scripts/plot-profiles ]; then scripts/plot-profiles $(OUT) && echo "plot: $(OUT)/profiles.png"; fi
	@echo "final observables (t = 1):" && tail -n 1 $(OUT)/observables.csv | tr ',' '\n' | paste -d= <(head -n 1 $(OUT)/observables.csv | tr ',' '\n') - | tr '\n' ' ' && echo

test: build
	@# Passive OpenMP waits: with tests side by side, spinning threads starve each other.
	cd $(BUILD) && OMP_WAIT_POLICY=PASSIVE ctest --output-on-failure -j $(JOBS)
