# gestured-web in a real browser (mk/web-browser-test.py): Debian's headless Chromium,
# driven by chromedriver through selenium from PyPI, while gestured replays recordings of
# ../shared/recordings. Its own target, not in `make test`: the browser is a 110 MB
# download on a clean machine (README.md, "What `make test` runs").
WEB_APT_PACKAGES := chromium chromium-driver python3-pip
WEB_SCREENSHOT ?= .build/web-live-view.png

.PHONY: web-deps web-browser-test

web-deps:
	@missing=""; for p in $(WEB_APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "web-deps: installing$$missing"; \
	  $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi
	@python3 -c 'import selenium' 2>/dev/null || python3 -m pip install -q --break-system-packages 'selenium>=4.20,<5' 2>/dev/null \
	  || python3 -m pip install -q 'selenium>=4.20,<5'

web-browser-test: web-deps build
	python3 mk/web-browser-test.py "$$($(SWIFT) build --show-bin-path)" ../shared/recordings $(WEB_SCREENSHOT)
