# Debian 13 (trixie) in a root of its own (mk/debian-swift.sh, README.md "Debian 13 and
# Debian's own Swift"): a root made with mmdebstrap in .debian-swift/ (git-ignored, about
# 3 GB, reused), the working tree copied in.
#   debian-swift-test     the Swift suites, then `make deb` and the package test, with
#                         Debian's swiftlang 6.0.3: the recipe of a Debian 13 or Raspberry
#                         Pi OS machine. Needs swift-log 1.11.0 (DEBIAN_SWIFT_LOG, below).
#   deb-trixie            `make deb` there with this machine's Swift toolchain (bound at
#                         /opt/swift, build profile pkg.gestured.swift-on-path): trixie's
#                         debhelper, pandoc and unit paths (the Debian 13 systemd tier's).
#   package-test-trixie   that package through mk/package-test.sh there:
#                         lintian from trixie, dpkg -i, purge. A Debian 12 package is not
#                         one for Debian 13 (its /lib paths are aliased-location there).
#   arm64-replay-test     in the same root, gesturectl and gestured cross-compiled for
#                         aarch64 by swiftlang 6.0.3 against Debian 13's arm64 packages,
#                         then every shared recording replayed (--json, --delivery --json)
#                         under qemu-aarch64 and compared with amd64's, and replayed by the
#                         arm64 gestured (--replay) to a subscriber (mk/arm64-replay.sh).
# Not part of `make test`: the root costs minutes of download, and the Swift suites under
# 6.0.3 need a swift-log the offline copies do not have.
DEBIAN_SWIFT_APT_PACKAGES := mmdebstrap
# A git repository of swift-log with the tag 1.11.0 (the newest Swift 6.0.3 can build);
# unset, SwiftPM takes it from GitHub through the host's git rules.
DEBIAN_SWIFT_LOG ?=
# The roots' folder (mk/debian-swift.sh's DEBIAN_SWIFT_DIR).
DEBIAN_SWIFT_DIR ?= .debian-swift
export DEBIAN_SWIFT_LOG DEBIAN_SWIFT_DIR

.PHONY: debian-swift-deps debian-swift-test deb-trixie package-test-trixie arm64-replay-test

debian-swift-deps:
	@missing=""; for p in $(DEBIAN_SWIFT_APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "debian-swift-deps: installing$$missing"; \
	  $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

# The package built there lands in .debian-swift/trixie-amd64/src/gestured/.build/deb/.
debian-swift-test: debian-swift-deps
	$(SUDO) mk/debian-swift.sh sh -c 'make unit-test APT_PACKAGES= && make deb APT_PACKAGES= DEB_APT_PACKAGES= && mk/package-test.sh .build/deb/gestured_*.changes'

# The toolchain's root: swift is usr/bin/swift in it.
SWIFT_TOOLCHAIN ?= $(abspath $(dir $(shell command -v $(SWIFT)))/../..)

# Debian 13's package, built in the root with this machine's toolchain: what
# package-test-trixie checks and the Debian 13 systemd tier installs (mk/vm.mk).
DEB_TRIXIE_DIR := $(DEBIAN_SWIFT_DIR)/trixie-amd64/src/gestured/.build/deb

deb-trixie: debian-swift-deps
	$(SUDO) env DEBIAN_SWIFT_TOOLCHAIN=$(SWIFT_TOOLCHAIN) mk/debian-swift.sh sh -c 'PATH=/opt/swift/usr/bin:$$PATH make deb APT_PACKAGES= DEB_APT_PACKAGES= DEB_PROFILES=-Ppkg.gestured.swift-on-path'

package-test-trixie: deb-trixie
	$(SUDO) mk/debian-swift.sh sh -c 'mk/package-test.sh .build/deb/gestured_*.changes'

arm64-replay-test: debian-swift-deps
	$(SUDO) mk/debian-swift.sh mk/arm64-replay.sh
