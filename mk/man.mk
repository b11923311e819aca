# Man pages: gestured(8), gestured-web(8), gesturectl(1) and gestures.toml(5), from Markdown with pandoc.
# gestures.toml(5) is docs/CONFIG.md itself between a NAME header and a SEE ALSO footer,
# so the configuration reference has one source. ManPageTests fails when a verb, option
# or config key is missing from these sources.
MANDIR    ?= $(PREFIX)/share/man
MAN_BUILD := .build/man
# The package version: debian/changelog's first line (GesturedVersion.current follows it).
VERSION   := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
MAN_PAGES := $(MAN_BUILD)/gestured.8 $(MAN_BUILD)/gestured-web.8 $(MAN_BUILD)/gesturectl.1 $(MAN_BUILD)/gestures.toml.5
PANDOC_MAN = pandoc --standalone --from markdown --to man --lua-filter=docs/man/tables-to-lists.lua \
             -M header="gestured manual" -M footer="gestured $(VERSION)" -M date=

.PHONY: man install-man
man: $(MAN_PAGES)
install: install-man

$(MAN_BUILD)/%: docs/man/%.md debian/changelog docs/man/tables-to-lists.lua
	@mkdir -p $(@D)
	@command -v pandoc >/dev/null || { echo "man: pandoc is needed (Debian: apt-get install pandoc)"; exit 1; }
	$(PANDOC_MAN) -M title=$(shell echo $(basename $*) | tr a-z A-Z) -M section=$(subst .,,$(suffix $*)) -o $@ $<

$(MAN_BUILD)/gestures.toml.5: docs/man/gestures.toml.5.md docs/CONFIG.md docs/man/gestures.toml.5.tail.md debian/changelog docs/man/tables-to-lists.lua
	@mkdir -p $(@D)
	@command -v pandoc >/dev/null || { echo "man: pandoc is needed (Debian: apt-get install pandoc)"; exit 1; }
	$(PANDOC_MAN) --shift-heading-level-by=-1 -M title=GESTURES.TOML -M section=5 -o $@ \
	  docs/man/gestures.toml.5.md docs/CONFIG.md docs/man/gestures.toml.5.tail.md

install-man: $(MAN_PAGES)
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8
	install -m 0644 $(MAN_BUILD)/gesturectl.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 $(MAN_BUILD)/gestures.toml.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 0644 $(MAN_BUILD)/gestured.8 $(MAN_BUILD)/gestured-web.8 $(DESTDIR)$(MANDIR)/man8/
