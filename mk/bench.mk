# make bench: the benchmarks (docs/BENCHMARKS.md), one table, also as JSON.
#   bench-engine  engine + normalizer per frame: ordo-one's benchmark over the package in
#                 Benchmarks/ (own Package.swift, own scratch path .build-bench)
#   bench-daemon  the release daemon: end-to-end latency, idle cost, memory, start-up, and
#                 the web bridge's fan-out to 100 pages (Benchmarks/scripts/daemon-bench.py,
#                 webbench.py); `make bench-web` runs that row alone (bench-results/web.json)
# Results: bench-results/bench.md (the table), bench-results/bench.json.

BENCH_RESULTS := $(CURDIR)/bench-results
BENCH_SCRATCH := $(CURDIR)/.build-bench

.PHONY: bench bench-engine bench-daemon bench-web bench-tools

bench: bench-engine bench-daemon bench-tools
	$(BENCH_SCRATCH)/release/BenchReport --histograms $(BENCH_RESULTS)/histograms \
	  --daemon $(BENCH_RESULTS)/daemon.json --json $(BENCH_RESULTS)/bench.json \
	  --markdown $(BENCH_RESULTS)/bench.md --command "make bench"

# BenchReport, BenchProfile (profiling, pipeline memory), BenchRecordings (daemon inputs).
# The build plan is dropped first: SwiftPM does not notice files moved between the main
# package's targets (a path dependency here) and would compile the old lists.
bench-tools: apt-deps
	rm -f $(BENCH_SCRATCH)/release.yaml
	cd Benchmarks && for p in BenchReport BenchProfile BenchRecordings; do \
	  $(SWIFT) build -c release --scratch-path $(BENCH_SCRATCH) --product $$p || exit 1; done

bench-engine: apt-deps
	rm -f $(BENCH_SCRATCH)/release.yaml
	rm -rf $(BENCH_RESULTS)/histograms && mkdir -p $(BENCH_RESULTS)/histograms
	cd Benchmarks && $(SWIFT) package --scratch-path $(BENCH_SCRATCH) --disable-sandbox \
	  benchmark --target EngineBenchmarks --no-progress \
	  --format histogramEncoded --path $(BENCH_RESULTS)/histograms

bench-daemon: release bench-tools
	mkdir -p $(BENCH_RESULTS)
	python3 Benchmarks/scripts/daemon-bench.py --daemon .build/release/gestured \
	  --config config/gestures.toml --tools $(BENCH_SCRATCH)/release --out $(BENCH_RESULTS)/daemon.json

bench-web: release bench-tools
	mkdir -p $(BENCH_RESULTS)
	python3 Benchmarks/scripts/daemon-bench.py --daemon .build/release/gestured \
	  --config config/gestures.toml --tools $(BENCH_SCRATCH)/release --only "web bridge" --out $(BENCH_RESULTS)/web.json
