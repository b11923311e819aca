# systemd unit, the web bridge's socket and service (not enabled), sysusers.d entry, journald's catalog of gestured's message ids, the udev rules for /dev/uinput and the clone (touch delivery) with the clone's helper, the panel-reset unit with its helper, the kiosk-user and metrics drop-ins and polkit rule examples and the
# docs, installed with `make install`. PREFIX=/usr/local puts them where systemd looks for
# local units.
UNITDIR     ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
LIBEXECDIR  ?= $(PREFIX)/libexec
CATALOGDIR  ?= $(PREFIX)/lib/systemd/catalog
DOCDIR      ?= $(PREFIX)/share/doc/gestured

.PHONY: install-systemd verify-systemd
install: install-systemd

install-systemd:
	install -d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(CATALOGDIR) $(DESTDIR)$(DOCDIR)/examples
	sed 's|@BINDIR@|$(PREFIX)/bin|g' systemd/gestured.service > $(DESTDIR)$(UNITDIR)/gestured.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/gestured.service
	sed 's|@BINDIR@|$(PREFIX)/bin|g' systemd/gestured-web.service > $(DESTDIR)$(UNITDIR)/gestured-web.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/gestured-web.service
	install -m 0644 systemd/gestured-web.socket $(DESTDIR)$(UNITDIR)/gestured-web.socket
	install -m 0644 systemd/gestured.sysusers $(DESTDIR)$(SYSUSERSDIR)/gestured.conf
	install -m 0644 systemd/70-gestured-uinput.rules $(DESTDIR)$(UDEVRULESDIR)/70-gestured-uinput.rules
	sed 's|/usr/libexec/|$(LIBEXECDIR)/|' systemd/90-gestured-clone.rules > $(DESTDIR)$(UDEVRULESDIR)/90-gestured-clone.rules
	chmod 0644 $(DESTDIR)$(UDEVRULESDIR)/90-gestured-clone.rules
	install -D -m 0755 systemd/gestured-udev-import $(DESTDIR)$(LIBEXECDIR)/gestured/udev-import
	sed 's|/usr/libexec/|$(LIBEXECDIR)/|' systemd/gestured-panel-reset@.service > '$(DESTDIR)$(UNITDIR)/gestured-panel-reset@.service'
	chmod 0644 '$(DESTDIR)$(UNITDIR)/gestured-panel-reset@.service'
	install -m 0755 systemd/gestured-panel-reset $(DESTDIR)$(LIBEXECDIR)/gestured/panel-reset
	install -m 0644 systemd/gestured.catalog $(DESTDIR)$(CATALOGDIR)/gestured.catalog
	install -m 0644 systemd/gestured-kiosk-user.conf systemd/gestured-metrics.conf systemd/gestured-polkit.rules docs/examples/gestured.rules.yml $(DESTDIR)$(DOCDIR)/examples/
	install -m 0644 docs/*.md $(DESTDIR)$(DOCDIR)/
	@if [ -z "$(DESTDIR)" ] && command -v systemd-sysusers >/dev/null; then \
	  $(SUDO) systemd-sysusers $(SYSUSERSDIR)/gestured.conf && $(SUDO) systemctl daemon-reload 2>/dev/null || true; fi
	@if [ -z "$(DESTDIR)" ] && command -v journalctl >/dev/null; then $(SUDO) journalctl --update-catalog || true; fi

# systemd-analyze verify on the units (their programs pointed at an existing binary; the
# panel reset as an instance) with the drop-in example applied (man pages are checked once installed: mk/package.mk), and the daemon's sandbox's exposure at most 2.0 (`systemd-analyze
# security` counts tenths: --threshold=20).
verify-systemd:
	@tmp=$$(mktemp -d) && mkdir -p $$tmp/gestured.service.d && \
	sed 's|@BINDIR@/[a-z]*|/bin/true|g' systemd/gestured.service > $$tmp/gestured.service && \
	sed 's|@BINDIR@/[a-z-]*|/bin/true|g' systemd/gestured-web.service > $$tmp/gestured-web.service && \
	cp systemd/gestured-web.socket $$tmp/ && \
	sed 's|/usr/libexec/gestured/panel-reset|/bin/true|' systemd/gestured-panel-reset@.service > $$tmp/gestured-panel-reset@.service && \
	cp systemd/gestured-kiosk-user.conf systemd/gestured-metrics.conf $$tmp/gestured.service.d/ && \
	SYSTEMD_UNIT_PATH=$$tmp: systemd-analyze verify --man=no $$tmp/gestured.service $$tmp/gestured-panel-reset@event5.service $$tmp/gestured-web.socket $$tmp/gestured-web.service 2>&1 | tee $$tmp/out; \
	status=$$([ -s $$tmp/out ] && echo 1 || echo 0); \
	systemd-analyze security --offline=yes --threshold=20 $$tmp/gestured.service | tail -1 || status=1; \
	systemd-analyze security --offline=yes --threshold=10 $$tmp/gestured-web.service | tail -1 || status=1; \
	rm -rf $$tmp; exit $$status
