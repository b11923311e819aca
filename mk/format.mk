# swift-format (ships with the toolchain), configured by .swift-format: `make format`
# rewrites the Swift sources in place; `make format-check` (part of `make check` and
# `make test`) fails when a file is not formatted or breaks one of its rules.
FORMAT_PATHS := Sources Tests Fuzz/Sources Benchmarks/BenchProfile Benchmarks/BenchRecordings \
                Benchmarks/BenchReport Benchmarks/BenchScenarios Benchmarks/EngineBenchmarks

.PHONY: format format-check

format:
	$(SWIFT) format --in-place --recursive --parallel $(FORMAT_PATHS)

format-check:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)
