#!/usr/bin/env bash
# Prints the ASan and LeakSanitizer reports of the last `make vm-test-asan` run
# (.vm-cache/results/asan.PROGRAM.PID) with every frame symbolized: the guest has no
# symbolizer and its binaries are stripped, so frames arrive as (MODULE+OFFSET) and are
# looked up here in the unstripped build (VM_BIN_DIR), the toolchain's runtime and the
# unpacked Debian tree. Each symbolized report is also written beside its original (.sym).
# Exits 0 when there is no report, 1 when there is one.
set -euo pipefail
cd "$(dirname "$0")/.."
. vm/lib.sh

VM_BIN_DIR=${VM_BIN_DIR:-.build-vm-asan/release}
RESULTS=$VM_CACHE/results
SYMBOLIZER=$(command -v llvm-symbolizer || echo /opt/swift/usr/bin/llvm-symbolizer)
DEMANGLE=$(command -v swift-demangle || echo /opt/swift/usr/bin/swift-demangle)

host_file() { # GUEST_PATH -> the same file on the host
  case $1 in
    /usr/bin/gestured | /usr/bin/gesturectl) echo "$VM_BIN_DIR/${1##*/}" ;;
    /opt/swift/*) echo "$1" ;;
    *) echo "$VM_ROOT$1" ;;
  esac
}

# "#3 0x7f... (/usr/bin/gestured+0x1a2b3c)" -> the same line, then "in FUNCTION FILE:LINE".
symbolize() { # REPORT
  local line module offset file where
  while IFS= read -r line; do
    printf '%s\n' "$line"
    [[ $line =~ \(([^()+]+)\+(0x[0-9a-f]+)\) ]] || continue
    module=${BASH_REMATCH[1]} offset=${BASH_REMATCH[2]}
    file=$(host_file "$module")
    [ -f "$file" ] || continue
    where=$("$SYMBOLIZER" --obj="$file" --inlining=false --output-style=GNU "$offset" 2>/dev/null | paste -sd' ')
    printf '        in %s\n' "$("$DEMANGLE" --simplified <<<"$where")"
  done < "$1"
}

main() {
  local r count=0
  for r in "$RESULTS"/asan.*; do
    case $r in *.sym | *'*') continue ;; esac
    count=$((count + 1))
    symbolize "$r" > "$r.sym"
    printf '=== %s\n' "${r##*/}"
    cat "$r.sym"
  done
  [ "$count" -gt 0 ] || { log "no ASan or LeakSanitizer report in $RESULTS"; return 0; }
  log "$count sanitizer report(s) in $RESULTS"
  return 1
}

main "$@"
