# make soak: the release daemon under every input kind at once for SOAK_TIME seconds (an
# hour by default), its resident size, fds, children and recognition counts checked after
# each phase (Benchmarks/scripts/soak.py; docs/BENCHMARKS.md, "Soak"). `make soak-smoke`
# is the CI-sized run: two minutes. Results: bench-results/soak.md, soak.json (every
# sample) and soak-daemon.log (the daemon's log).

SOAK_TIME  ?= 3600
SOAK_PHASE ?= 60

.PHONY: soak soak-smoke

soak: release
	python3 Benchmarks/scripts/soak.py --daemon .build/release/gestured --gesturectl .build/release/gesturectl \
	  --seconds $(SOAK_TIME) --phase $(SOAK_PHASE) --out $(CURDIR)/bench-results/soak.md

soak-smoke:
	$(MAKE) soak SOAK_TIME=120 SOAK_PHASE=20
