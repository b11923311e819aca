# systemd unit, sysusers.d entry and the kiosk-user drop-in example, installed with
# `make install`. PREFIX=/usr/local puts them where systemd looks for local units.
UNITDIR     ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
DOCDIR      ?= $(PREFIX)/share/doc/gestured

.PHONY: install-systemd verify-systemd
install: install-systemd

install-systemd:
	install -d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(DOCDIR)
	sed 's|@BINDIR@|$(PREFIX)/bin|g' systemd/gestured.service > $(DESTDIR)$(UNITDIR)/gestured.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/gestured.service
	install -m 0644 systemd/gestured.sysusers $(DESTDIR)$(SYSUSERSDIR)/gestured.conf
	install -m 0644 systemd/gestured-kiosk-user.conf docs/PROTOCOL.md $(DESTDIR)$(DOCDIR)/
	@if [ -z "$(DESTDIR)" ] && command -v systemd-sysusers >/dev/null; then \
	  $(SUDO) systemd-sysusers $(SYSUSERSDIR)/gestured.conf && $(SUDO) systemctl daemon-reload 2>/dev/null || true; fi

# systemd-analyze verify on the unit (ExecStart pointed at an existing binary) with the
# drop-in example applied.
verify-systemd:
	@tmp=$$(mktemp -d) && mkdir -p $$tmp/gestured.service.d && \
	sed 's|@BINDIR@/gestured|/bin/true|' systemd/gestured.service > $$tmp/gestured.service && \
	cp systemd/gestured-kiosk-user.conf $$tmp/gestured.service.d/ && \
	SYSTEMD_UNIT_PATH=$$tmp: systemd-analyze verify $$tmp/gestured.service 2>&1 | tee $$tmp/out; \
	status=$$([ -s $$tmp/out ] && echo 1 || echo 0); rm -rf $$tmp; exit $$status
