# make docs-img: the pictures in docs/img/ (listed in docs/img/pictures.txt) drawn by
# `gesturectl render`, with the synthetic recordings of docs/examples/ rewritten first.
# The test suite fails when a committed picture differs from what this draws.

.PHONY: docs-img

docs-img: build
	python3 docs/examples/strokes.py docs/examples
	@bin="$$($(SWIFT) build --show-bin-path)/gesturectl"; \
	grep -v '^#' docs/img/pictures.txt | while read -r name config recording; do \
	  [ -n "$$name" ] || continue; \
	  echo "docs-img: docs/img/$$name.svg"; \
	  "$$bin" render "$$config" $${recording:+--recording "$$recording"} -o "docs/img/$$name.svg" || exit 1; \
	done
