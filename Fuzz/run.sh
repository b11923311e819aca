#!/bin/sh
# Runs each fuzz target for SECONDS on its corpus (mk/fuzz.mk): run.sh SCRATCH SECONDS TARGET...
# Seeds come from the project (configs, PROTOCOL.md examples) and ../shared/recordings.
set -eu
scratch=$1 seconds=$2
shift 2
recordings=${GESTURED_FUZZ_RECORDINGS:-../shared/recordings}
export GESTURED_FUZZ_RECORDINGS=$recordings
# The Swift runtime's backtracer waits on a crashing process that libFuzzer is about to end.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
[ -d "$recordings" ] || { echo "fuzz: $recordings is missing (the recordings beside the project)" >&2; exit 1; }

seed() { # TARGET DIR: the seed inputs of a target
  case $1 in
    FuzzEvemu) cp "$recordings"/*.evemu "$recordings"/*.desc "$2"/ ;;
    FuzzConfig) cp config/*.toml vm/guest/configs/*.toml "$2"/ ;;
    FuzzTemplate)
      grep -ho "message = \"[^\"]*\"" config/*.toml docs/CONFIG.md | sed 's/^message = "//; s/"$//' |
        awk '{ f = sprintf("%s/template-%03d", d, NR); printf "%s", $0 > f; close(f) }' d="$2" ;;
    FuzzControl)
      grep -ho '^{"cmd".*}$' docs/PROTOCOL.md |
        awk '{ f = sprintf("%s/request-%03d", d, NR); print $0 > f; close(f) }' d="$2" ;;
    FuzzHTTP)
      printf 'GET /events?gesture=tap&view=map HTTP/1.1\r\nHost: 127.0.0.1:8470\r\nOrigin: http://127.0.0.1:8470\r\n\r\n' > "$2/request-get"
      printf 'POST /set HTTP/1.1\r\nHost: localhost:8470\r\nOrigin: http://localhost:8470\r\nContent-Type: application/json\r\nContent-Length: 36\r\n\r\n{"gesture": "tap", "enabled": false}' > "$2/request-set" ;;
    FuzzPipeline) printf '\000\003\200\000\000\000\000\002\000\000\000\000\000' > "$2/seed-down" ;;
  esac
}

failed=""
for target in "$@"; do
  corpus=$scratch/corpus/$target seeds=$scratch/seeds/$target crashes=$scratch/crashes
  mkdir -p "$corpus" "$crashes"
  rm -rf "$seeds" && mkdir -p "$seeds" && seed "$target" "$seeds"
  echo "fuzz: $target for ${seconds}s ($(ls "$corpus" | wc -l) corpus inputs, $(ls "$seeds" | wc -l) seeds)"
  if ! "$scratch/debug/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 -artifact_prefix="$crashes/$target-" "$corpus" "$seeds" \
      > "$scratch/$target.log" 2>&1; then
    failed="$failed $target"
    grep -E "^(==|SUMMARY|invariant broken|Fatal error|artifact_prefix|Test unit written)" "$scratch/$target.log" | head -20
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$scratch/$target.log" | tr '\n' ' '; echo
done
[ -z "$failed" ] || { echo "fuzz: crashes in$failed (inputs in $scratch/crashes; logs $scratch/TARGET.log)"; exit 1; }
echo "fuzz: no crash in $*"
