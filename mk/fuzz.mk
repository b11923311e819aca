# Fuzzing (docs/FUZZING.md): libFuzzer targets in Fuzz/ (their own package and scratch path
# .build-fuzz), every module instrumented with AddressSanitizer and libFuzzer's coverage.
#   make fuzz [FUZZ_TIME=600] [FUZZ_TARGETS="FuzzConfig ..."]   each target for FUZZ_TIME s
#   make fuzz-smoke                                              each for a few seconds (make test)
# Corpora grow in .build-fuzz/corpus/TARGET (seeded each run from ../shared/recordings, the
# shipped and test configs and docs/PROTOCOL.md's examples); a crash is written to
# .build-fuzz/crashes/ and ends the run with its input's path: turn it into a regression test.

FUZZ_SCRATCH := $(CURDIR)/.build-fuzz
FUZZ_TARGETS ?= FuzzEvemu FuzzConfig FuzzTemplate FuzzControl FuzzPipeline FuzzHTTP
FUZZ_TIME ?= 600
FUZZ_SMOKE_TIME ?= 5
# libFuzzer without its main (each target's main calls LLVMFuzzerRunDriver), from the
# toolchain that compiles the instrumentation.
FUZZ_RUNTIME = $(shell dirname "$$(readlink -f "$$(command -v $(SWIFT))")")/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a
FUZZ_FLAGS = -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
             -Xcc -fsanitize=address -Xlinker $(wildcard $(FUZZ_RUNTIME)) -Xlinker -lstdc++

.PHONY: fuzz fuzz-smoke fuzz-build

# make test runs each target briefly (fuzz-smoke), so that a regression of what they found
# is caught.

fuzz-build: apt-deps
	@[ -n "$(wildcard $(FUZZ_RUNTIME))" ] || { echo "fuzz: no libclang_rt.fuzzer_no_main in the Swift toolchain ($(FUZZ_RUNTIME))"; exit 1; }
	rm -f $(FUZZ_SCRATCH)/debug.yaml
	cd Fuzz && $(SWIFT) build --scratch-path $(FUZZ_SCRATCH) $(FUZZ_FLAGS)

fuzz: fuzz-build
	Fuzz/run.sh $(FUZZ_SCRATCH) $(FUZZ_TIME) $(FUZZ_TARGETS)

fuzz-smoke: fuzz-build
	Fuzz/run.sh $(FUZZ_SCRATCH) $(FUZZ_SMOKE_TIME) $(FUZZ_TARGETS)
