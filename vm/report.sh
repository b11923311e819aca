#!/usr/bin/env bash
# The side-by-side table for docs/BENCHMARKS.md, from the last `make vm-test` results:
# for each swipe case both daemons ran, what each recognized and two latencies per
# action: from the event that triggered it (the last SYN_REPORT the kernel delivered
# before the action ran) and from the first touch-down of that stroke. Event times come
# from evtest in the guest (kernel CLOCK_REALTIME), action times from the command itself
# (ash's $EPOCHREALTIME).
# Usage: report.sh [--update FILE] [RESULTS_DIR]: markdown on stdout; with --update, also
# into FILE between the vm-report markers (appended as a new section when absent).
set -euo pipefail
cd "$(dirname "$0")/.."
. vm/lib.sh

UPDATE=
if [ "${1:-}" = --update ]; then UPDATE=${2:?--update needs a file}; shift 2; fi
RESULTS=${1:-$VM_CACHE/results}
BEGIN_MARK="<!-- vm-report:begin (vm/report.sh writes this part) -->"
END_MARK="<!-- vm-report:end -->"
CASES=(elan-swipe-right dell-swipe-down-3f atmel-4f-drag-down ep0430m09-2f-scroll pixel-fling)
declare -A TITLE=(
  [elan-swipe-right]="1-finger swipe right, 80 mm in 200 ms, x10 (synthetic, ELAN 04f3:010c)"
  [dell-swipe-down-3f]="3-finger swipe down, 60 mm in 250 ms, x10 (synthetic, Dell Canvas)"
  [atmel-4f-drag-down]="4-finger drag down, x3 (real, Atmel maXTouch; lisgd -m 1500)"
  [ep0430m09-2f-scroll]="2-finger swipe up, x3 (real, EP0430M09; lisgd -m 1500)"
  [pixel-fling]="1-finger fling at 332.8 deg, x3 (real, Pixel Tablet)"
)

# Latencies in ms, one line per recognized action: "from_trigger from_touchdown".
latencies() { # DIR
  awk -F'\t' '
    FNR == NR {
      if ($0 !~ /^Event: time /) next
      split($0, f, /[ ,]+/); t = f[3]
      if ($0 ~ /SYN_REPORT/) { syn[++ns] = t; next }
      # The reader lost events (the marker comes after the loss): contact counts restart.
      if ($0 ~ /SYN_DROPPED/) { drop[++nx] = t; active = 0; next }
      if ($0 ~ /ABS_MT_TRACKING_ID\), value -1/) { if (active > 0) active--; next }
      if ($0 ~ /ABS_MT_TRACKING_ID\), value/) { if (active++ == 0) down[++nd] = t }
      next
    }
    $4 == "recognized" || $4 == "began" {
      a = $1; trig = ""; td = ""; nxt = ""
      for (i = 1; i <= ns && syn[i] <= a; i++) trig = syn[i]
      if (i <= ns) nxt = syn[i]
      for (i = 1; i <= nd && down[i] <= a; i++) td = down[i]
      # Unknown when events of this stroke may be missing: a loss between its
      # touch-down and the first report after the action.
      lost = 0
      for (i = 1; i <= nx; i++) if (drop[i] > td && (nxt == "" || drop[i] <= nxt)) lost = 1
      if (trig != "" && td != "" && !lost)
        printf "%.1f %.1f\n", (a - trig) * 1000, (a - td) * 1000
      else print "unknown"
    }' "$1/events.log" "$1/actions.tsv"
}

# How long each replayed stroke lasted in the kernel's times, touch-down to last lift, in
# ms: replays run slower than recorded under emulation, more so on a busy host.
strokes() { # EVENTS_LOG
  awk '/^Event: time / {
      split($0, f, /[ ,]+/); t = f[3]
      if ($0 ~ /ABS_MT_TRACKING_ID\), value -1/) { if (active > 0 && --active == 0) printf "%.1f\n", (t - start) * 1000 }
      else if ($0 ~ /ABS_MT_TRACKING_ID\), value/) { if (active++ == 0) start = t }
    }' "$1"
}

# p50/p99 (nearest rank) of one column.
percentiles() { # COLUMN
  { grep -v unknown || true; } | sort -n -k"$1" | awk -v c="$1" 'NF { v[++n] = $c }
    END { if (n == 0) { print "-"; exit }
          p50 = v[int(0.5 * n + 0.999)]; p99 = v[int(0.99 * n + 0.999)]
          printf "%s / %s", p50, p99 }'
}

found() { # DIR: "N name[, M name]" or "nothing"
  awk -F'\t' '$4 == "recognized" || $4 == "began" { n[$3]++ }
    END { s = ""; for (k in n) s = s (s ? ", " : "") n[k] " " k; print s ? s : "nothing" }' "$1/actions.tsv"
}

row() { # CASE
  local c=$1 d cells=() lat unknown note
  for d in lisgd gestured; do
    if [ -f "$RESULTS/$d-$c/actions.tsv" ]; then
      lat=$(latencies "$RESULTS/$d-$c")
      unknown=$(grep -c unknown <<<"$lat" || true)
      note=
      [ "$unknown" = 0 ] || note=" ($unknown without latency: the reader lost events)"
      cells+=("$(found "$RESULTS/$d-$c")$note"
              "$(percentiles 1 <<<"$lat")" "$(percentiles 2 <<<"$lat")")
    else
      cells+=("not run" "-" "-")
    fi
  done
  local dir=$RESULTS/lisgd-$c stroke=-
  [ -f "$dir/events.log" ] || dir=$RESULTS/gestured-$c
  [ ! -f "$dir/events.log" ] || stroke=$(strokes "$dir/events.log" | percentiles 1)
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "${TITLE[$c]}" "$stroke" \
    "${cells[0]}" "${cells[3]}" "${cells[1]}" "${cells[4]}" "${cells[2]}" "${cells[5]}"
}

rss_table() {
  echo "| daemon | resident size (VmRSS) after each case, MB | peak (VmHWM), MB |"
  echo "|---|---|---|"
  local d
  for d in lisgd gestured; do
    awk -F'\t' -v d="$d" '$1 == d { if (min == "" || $3 < min) min = $3; if ($3 > max) max = $3; if ($4 > hwm) hwm = $4 }
      END { if (max == "") printf "| %s | not run | - |\n", d
            else printf "| %s | %.1f-%.1f | %.1f |\n", d, min / 1024, max / 1024, hwm / 1024 }' "$RESULTS/rss.tsv"
  done
}

table() {
  echo "Swipes replayed through uinput in a qemu VM (TCG, 2 vCPUs, Debian's 6.1 kernel);"
  echo "lisgd 0.3.7 (Debian) and gestured each alone on the same device and replay."
  echo "Latencies in ms, p50 / p99: from the event that triggered the action, and from the"
  echo "stroke's first touch-down (what a person feels: lisgd acts at lift, gestured mid-stroke)."
  echo "Replayed stroke: touch-down to last lift as the kernel timed it, p50 / p99 (emulation"
  echo "replays slower than recorded). The gestured columns need \`make vm-test VM_GESTURED=1\`."
  [ ! -f "$RESULTS/host-load" ] || echo "Host load average (1, 5, 15 min) at the end of the run: $(cat "$RESULTS/host-load")."
  echo
  echo "| case | replayed stroke | lisgd found | gestured found | lisgd from trigger | gestured from trigger | lisgd from touch-down | gestured from touch-down |"
  echo "|---|---|---|---|---|---|---|---|"
  local c
  for c in "${CASES[@]}"; do row "$c"; done
  echo
  rss_table
}

# Replaces the marked part of FILE with TEXT, or appends a section holding it.
update_file() { # FILE TEXT
  local file=$1 text=$2
  if [ -f "$file" ] && grep -qF "$BEGIN_MARK" "$file"; then
    awk -v b="$BEGIN_MARK" -v e="$END_MARK" -v t="$text" '
      $0 == b { print; print t; skip = 1; next }
      $0 == e { skip = 0 }
      !skip' "$file" > "$file.tmp" && mv "$file.tmp" "$file"
  else
    mkdir -p "$(dirname "$file")"
    [ -f "$file" ] || echo "# Benchmarks" > "$file"
    # shellcheck disable=SC2016 # the backquotes are markdown
    printf '\n## Side by side with lisgd, through a real kernel\n\nReproduce: `make vm-test VM_GESTURED=1 && make vm-report` (vm/README.md).\n\n%s\n%s\n%s\n' \
      "$BEGIN_MARK" "$text" "$END_MARK" >> "$file"
  fi
  log "updated $file"
}

main() {
  [ -f "$RESULTS/summary.tsv" ] || die "no results in $RESULTS: run 'make vm-test' (VM_GESTURED=1 for the gestured columns)"
  local text
  text=$(table)
  echo "$text"
  [ -z "$UPDATE" ] || update_file "$UPDATE" "$text"
}

main "$@"
