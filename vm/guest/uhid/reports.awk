# One contact's HID input reports, in a panel's own report format, for uhid-replay (E:
# lines of hid-tools' format). Input: one report a line, "SECONDS TIP CONTACT X Y" (TIP 1
# while the finger touches, 0 in the report that lifts it; X and Y in the panel's logical
# units). -v panel=egalax|advanced-silicon.
function le16(v) { return sprintf("%02x %02x", v % 256, int(v / 256)) }
{
  t = $1; tip = $2; id = $3; xy = le16($4) " " le16($5)
  if (panel == "egalax") { # report 4: tip, in range, contact id (bits 2-6), valid; X; Y
    printf "E: %.6f 6 04 %02x %s\n", t, tip + 2 + id * 4 + 128, xy
  } else if (panel == "advanced-silicon") { # report 1: tip, contact id (bits 3-7); X; Y;
    # four empty fingers; scan time (100 us units); contact count
    printf "E: %.6f 29 01 %02x %s", t, tip + id * 8, xy
    for (i = 0; i < 20; i++) printf " 00"
    printf " %s 01\n", le16(int(t * 10000 + 0.5) % 65536)
  } else {
    print "reports.awk: unknown panel '" panel "'" > "/dev/stderr"; exit 1
  }
}
