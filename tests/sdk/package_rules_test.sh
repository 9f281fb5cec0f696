#!/usr/bin/env bash
# The package rules (cmake/SolventPackageRules.cmake) on a small tree: a clean tree passes,
# and each kind of violation is refused with a message naming the file and the rule; the
# same for the core's layers (core/src/<layer>/).
# usage: package_rules_test.sh RULES_SCRIPT WORK_DIR
set -euo pipefail
rules=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
make_tree() {
  local t=$work/$1
  mkdir -p "$t/plugins/alpha/src" "$t/plugins/alpha/include/solvent_alpha" \
           "$t/plugins/beta/include/solvent_beta" "$t/families/gamma/include/solvent_family_gamma"
  for p in plugins/alpha plugins/beta families/gamma; do
    echo "add_library(x INTERFACE)" > "$t/$p/CMakeLists.txt"; echo "# $p" > "$t/$p/README.md"
  done
  printf '#include <solvent/model.hpp>\n#include <solvent_alpha/a.hpp>\n#include <solvent_family_gamma/g.hpp>\n#include "src/private.hpp"\n' \
    > "$t/plugins/alpha/plugin_alpha.cpp"
  mkdir -p "$t/core/src/sdk" "$t/core/src/config" "$t/core/src/record" "$t/core/src/run"
  printf '#include "sdk/checked_file.hpp"\n#include <solvent/io/output.hpp>\n' > "$t/core/src/sdk/output.cpp"
  printf '#include "config/config_document.hpp"\n#include "sdk/checked_file.hpp"\n' > "$t/core/src/config/config_validation.cpp"
  printf '#include "config/config_validation.hpp"\n' > "$t/core/src/record/run_record.cpp"
  printf '#include "record/run_record.hpp"\n#include "config/config_validation.hpp"\n' > "$t/core/src/run/run_driver.cpp"
  echo "$t"
}
expect() {  # expect TREE pass|"message"
  local out
  if out=$(cmake -DSOURCE_DIR="$1" -P "$rules" 2>&1); then
    [ "$2" = pass ] || { echo "FAIL: $1 passed, expected: $2"; exit 1; }
  else
    [ "$2" != pass ] || { echo "FAIL: $1 refused:"; echo "$out"; exit 1; }
    grep -qF -- "$2" <<<"$out" || { echo "FAIL: expected '$2' in:"; echo "$out"; exit 1; }
  fi
}
expect "$(make_tree clean)" pass
t=$(make_tree other-package)
echo '#include <solvent_beta/b.hpp>' >> "$t/plugins/alpha/src/private.hpp"
expect "$t" "plugins/alpha/src/private.hpp: includes solvent_beta, another package's headers"
t=$(make_tree climbing)
echo '#include "../../beta/src/b.hpp"' >> "$t/plugins/alpha/plugin_alpha.cpp"
expect "$t" "plugins/alpha/plugin_alpha.cpp: includes a path outside its package"
t=$(make_tree include-path)
echo 'target_include_directories(x INTERFACE ${PROJECT_SOURCE_DIR}/plugins/beta/src)' >> "$t/plugins/alpha/CMakeLists.txt"
expect "$t" "plugins/alpha/CMakeLists.txt: an include path into another folder"
t=$(make_tree no-readme)
rm "$t/plugins/beta/README.md"
expect "$t" "plugins/beta: a package needs README.md"
t=$(make_tree stray-header)
mkdir -p "$t/plugins/alpha/include/alpha" && touch "$t/plugins/alpha/include/alpha/x.hpp"
expect "$t" "plugins/alpha/include/alpha: public headers belong in include/solvent_alpha/"
t=$(make_tree core-loose)
touch "$t/core/src/loose.cpp"
expect "$t" "core/src/loose.cpp: a core source lies in a layer's folder"
t=$(make_tree core-unknown-layer)
mkdir -p "$t/core/src/misc" && touch "$t/core/src/misc/x.cpp"
expect "$t" "core/src/misc/x.cpp: 'misc' is not a layer of the core"
t=$(make_tree core-bare-name)
echo '#include "run_record.hpp"' >> "$t/core/src/run/run_driver.cpp"
expect "$t" "core/src/run/run_driver.cpp: includes a private header by its bare name"
t=$(make_tree core-sdk-up)
echo '#include "io/output_manifest.hpp"' >> "$t/core/src/sdk/output.cpp"
expect "$t" "core/src/sdk/output.cpp: layer sdk includes io, a layer above it"
t=$(make_tree core-config-up)
echo '#include "run/run_driver.hpp"' >> "$t/core/src/config/config_validation.cpp"
expect "$t" "core/src/config/config_validation.cpp: layer config includes run, a layer above it"
t=$(make_tree core-record-up)
echo '#include "run/run_driver.hpp"' >> "$t/core/src/record/run_record.cpp"
expect "$t" "core/src/record/run_record.cpp: layer record includes run, a layer above it"
t=$(make_tree core-run-sweep)
echo '#include "sweep/sweep_plan.hpp"' >> "$t/core/src/run/run_driver.cpp"
expect "$t" "core/src/run/run_driver.cpp: layer run includes sweep, a layer above it"
echo "13 passed, 0 failed"
