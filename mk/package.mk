# The Debian package (debian/): `make deb` builds .build/deb/gestured_VERSION_ARCH.deb from
# the release build `make test` has already made; `make package-test` checks it as Debian
# would and as an integrator installs it (mk/package-test.sh; root, as on CI machines).
DEB_DIR := .build/deb
# systemd: its systemd.pc says where units go (Debian 12; Debian 13 has it in systemd-dev).
DEB_APT_PACKAGES := build-essential debhelper dpkg-dev lintian pandoc man-db systemd
# Debian's swiftlang (Debian 13) is a build dependency; without it (Debian 12, or a
# toolchain of one's own) the Swift on the PATH builds, and the profile says so (debian/control).
DEB_PROFILES := $(if $(shell dpkg-query -W -f='$${Status}' swiftlang 2>/dev/null | grep 'ok installed'),,-Ppkg.gestured.swift-on-path)

.PHONY: deb deb-deps package-test

deb-deps:
	@missing=""; for p in $(DEB_APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "deb-deps: installing$$missing"; \
	  $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

# dpkg-buildpackage writes beside the source tree; the results are moved into .build/deb.
deb: apt-deps deb-deps
	dpkg-buildpackage -us -uc -b $(DEB_PROFILES)
	@mkdir -p $(DEB_DIR) && rm -f $(DEB_DIR)/*
	mv ../gestured_$(VERSION)_*.deb ../gestured_$(VERSION)_*.buildinfo ../gestured_$(VERSION)_*.changes $(DEB_DIR)/
	@ls $(DEB_DIR)/*.deb

package-test: deb
	$(SUDO) mk/package-test.sh $(DEB_DIR)/gestured_$(VERSION)_*.changes
