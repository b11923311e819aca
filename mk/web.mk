# gestured-web in a real browser (mk/web-browser-test.py): Debian's headless Chromium,
# driven by chromedriver through selenium from PyPI, while gestured replays recordings of
# ../shared/recordings. Part of `make test`, after the Swift suites; `make deps` installs
# the browser (web-deps): 34 packages, 129 MB to download on a clean machine (README.md,
# "What `make test` runs"). Where no browser can be installed (no apt-get, no chromium for
# the architecture, PyPI out of reach) the test says so and skips; under CI=true it fails.
WEB_APT_PACKAGES := chromium chromium-driver python3-pip
WEB_SCREENSHOT ?= .build/web-live-view.png

.PHONY: web-deps web-browser-test

# Without recommends: they add 100 packages (KDE and GNOME portals, pipewire) a headless
# browser does not use. The package lists are fresh after apt-deps; update only if they
# were not.
web-deps: apt-deps
	@missing=""; for p in $(WEB_APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	install="$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends$$missing"; \
	if [ -z "$$missing" ]; then :; \
	elif ! command -v apt-get >/dev/null; then echo "web-deps: no apt-get: please install$$missing (Debian package names)"; \
	else echo "web-deps: installing$$missing"; \
	  $$install || { $(SUDO) apt-get update -q && $$install; } || echo "web-deps: could not install$$missing"; fi
	@python3 -c 'import selenium' 2>/dev/null || python3 -m pip install -q --break-system-packages 'selenium>=4.20,<5' 2>/dev/null \
	  || python3 -m pip install -q 'selenium>=4.20,<5' || echo "web-deps: could not install selenium from PyPI"

web-browser-test: web-deps build
	python3 mk/web-browser-test.py "$$($(SWIFT) build --show-bin-path)" ../shared/recordings $(WEB_SCREENSHOT)
