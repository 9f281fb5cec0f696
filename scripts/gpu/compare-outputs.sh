#!/usr/bin/env bash
# The outputs of every shipped configuration, byte for byte, between this tree and an earlier
# revision, built side by side. Make the earlier sources here first, then run on the device:
#   git archive -o .compare-base.tar REV        (listed in .git/info/exclude)
#   bash scripts/gpu/compare-outputs.sh          carry [".devdeps", ".compare-base.tar"]
# Every file a run writes is compared except record.toml (times, dates, hashes, versions)
# and the log; a run that fails on either side is reported as such.
set -uo pipefail
OUT=${OUT:-/tmp/compare-outputs}; mkdir -p "$OUT"
here=$PWD base=/tmp/compare-base
rm -rf "$base" && mkdir -p "$base" && tar -xf .compare-base.tar -C "$base" && cp -r .devdeps "$base/"
build() {  # build SOURCE_DIR BUILD_DIR: the command and every plugin
  (cd "$1" && BUILD=$2 source scripts/gpu/configure.sh && ninja -C "$2" solvent \
     $(ninja -C "$2" -t targets all | sed -n 's#^\(lib/solvent/libsolvent-[^:]*\.so\):.*#\1#p')) \
    > "$OUT/build-$(basename "$2").log" 2>&1 || { tail -20 "$OUT/build-$(basename "$2").log"; exit 1; }
}
build "$base" /tmp/build-base && build "$here" /tmp/build-head
echo "== built ($SECONDS s)"
mkdir -p /tmp/runs-base /tmp/runs-head
for config in "$here"/config/*.toml; do
  name=$(basename "$config" .toml)
  for side in base head; do
    tree=$here; [ $side = base ] && tree=$base
    (cd "$tree" && SOLVENT_PLUGIN_PATH=/tmp/build-$side/lib/solvent timeout 300 \
       /tmp/build-$side/bin/solvent run "config/$name.toml" --output "/tmp/runs-$side/$name" \
       --overwrite > "$OUT/$name-$side.log" 2>&1)
    echo $? > "/tmp/runs-$side/$name.rc"
  done
  files=$(cd "/tmp/runs-head/$name" 2>/dev/null && find . -type f ! -name record.toml ! -name '*.log' | sort)
  bad=$( (cd "/tmp/runs-base/$name" 2>/dev/null && find . -type f ! -name record.toml ! -name '*.log' | sort) |
    diff - <(printf '%s\n' "$files") > /dev/null || echo "different file lists")
  for f in $files; do cmp -s "/tmp/runs-base/$name/$f" "/tmp/runs-head/$name/$f" || bad="$bad $f"; done
  rc="rc $(cat /tmp/runs-base/$name.rc)/$(cat /tmp/runs-head/$name.rc)"
  if [ -z "$bad" ]; then echo "$name: $rc, $(wc -w <<<"$files") files identical"
  else echo "$name: $rc, differ:$bad"; fi
done | tee "$OUT/compare.txt"
echo "== compared ($SECONDS s)"
