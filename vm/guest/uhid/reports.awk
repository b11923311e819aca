# Contacts' HID input reports, in a panel's own report format, for uhid-replay (E: lines
# of hid-tools' format). Input: one contact a line, "SECONDS TIP CONTACT X Y [CONFIDENCE]"
# (TIP 1 while the finger touches, 0 in the report that lifts it; X and Y in the panel's
# logical units; CONFIDENCE 1 unless 0, on panels that have it). On the Win8 panels the
# consecutive lines of one time are one report (one frame: the contact count says how many).
# -v panel=egalax|advanced-silicon|3m.
BEGIN { n = 0 }
function le16(v) { return sprintf("%02x %02x", v % 256, int(v / 256)) }
function empty(bytes,   i) { for (i = 0; i < bytes; i++) printf " 00" }
# One frame's contacts (n of them, at time t) as one report of a Win8 panel.
function flush(   i) {
  if (n == 0) return
  if (panel == "advanced-silicon") { # report 1: five fingers of tip, contact id (bits 3-7);
    printf "E: %.6f 29 01", t       # X; Y; then scan time (100 us units), contact count
    for (i = 0; i < n; i++) printf " %02x %s", tip[i] + id[i] * 8, xy[i]
    empty((5 - n) * 5)
    printf " %s %02x\n", le16(int(t * 10000 + 0.5) % 65536), n
  } else { # 3m, report 0x13: six fingers of tip, confidence (bit 2); contact id; X; Y; four
    printf "E: %.6f 64 13", t # vendor bytes; then contact count, scan time (100 us units)
    for (i = 0; i < n; i++) printf " %02x %02x %s 00 00 00 00", tip[i] + conf[i] * 4, id[i], xy[i]
    empty((6 - n) * 10)
    printf " %02x %s\n", n, le16(int(t * 10000 + 0.5) % 65536)
  }
  n = 0
}
panel != "egalax" && panel != "advanced-silicon" && panel != "3m" {
  print "reports.awk: unknown panel '" panel "'" > "/dev/stderr"; exit 1
}
{
  c = NF < 6 || $6 != 0
  if (!c && panel != "3m") { print "reports.awk: " panel " has no confidence" > "/dev/stderr"; exit 1 }
}
panel == "egalax" { # report 4: tip, in range, contact id (bits 2-6), valid; X; Y
  printf "E: %.6f 6 04 %02x %s %s\n", $1, $2 + 2 + $3 * 4 + 128, le16($4), le16($5)
  next
}
{
  if (n > 0 && $1 != t) flush()
  if (n == (panel == "3m" ? 6 : 5)) { print "reports.awk: more contacts at " $1 " than one report holds" > "/dev/stderr"; exit 1 }
  t = $1; tip[n] = $2; id[n] = $3; xy[n] = le16($4) " " le16($5); conf[n] = c; n++
}
END { flush() }
