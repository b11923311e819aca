# The performance corner (docs/BENCHMARKS.md, "The performance corner"): how `make release`
# links the daemon for its resident size. Everything that exists only to make the binaries
# smaller or faster to start is here or named in that section; nothing else in the tree
# depends on it, and a plain `swift build -c release` still builds working binaries.

.PHONY: release release-order

# The Swift runtime linked in (4.4 MB resident for a bare binary, 7.4 MB with the shared
# one). The link options for the daemon's resident size (docs/BENCHMARKS.md, "The
# performance corner"): the toolchain's lld, whose `-z pack-relative-relocs` (DT_RELR,
# glibc 2.36) turns the PIE's 31,000 relative relocations (745 KB that ld.so reads before
# main) into a 6 KB bitmap; --no-export-dynamic undoes the -export-dynamic of the
# static-stdlib link (nothing looks the executable's symbols up; its 5,000 exported names
# cost start-up symbol lookups and 0.3 MiB); the ordering file puts the functions that
# start-up runs next to each other instead of across 7 MB of .text (names missing from a
# binary, gesturectl's for one, are not worth a warning). `make release-order`
# regenerates the file.
RELEASE_ORDER   := $(CURDIR)/mk/release-order.txt
# libstdc++ (the runtime's and toml++'s) linked in as well: the shared library costs 1.4 MiB
# resident, initialised whole at load; its archive brings 0.4 MiB of what is used. The
# linker takes -lstdc++ from the first directory that has it, so this one holds only the
# archive (of the compiler the toolchain links with: g++'s libstdc++-N-dev).
STATIC_CXX_DIR  := $(CURDIR)/.build/static-libstdc++
RELEASE_LDFLAGS := -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
                   -Xlinker --symbol-ordering-file=$(RELEASE_ORDER) -Xlinker --no-warn-symbol-ordering \
                   -Xlinker -L$(STATIC_CXX_DIR)

release: apt-deps $(STATIC_CXX_DIR)/libstdc++.a
	@# SwiftPM does not know the ordering file is an input of the link
	@if [ $(RELEASE_ORDER) -nt .build/release/gestured ]; then rm -f .build/release/gestured .build/release/gesturectl; fi
	$(SWIFT) build -c release --static-swift-stdlib $(RELEASE_LDFLAGS)

$(STATIC_CXX_DIR)/libstdc++.a:
	@archive="$$(cc -print-file-name=libstdc++.a)"; \
	if [ ! -f "$$archive" ]; then echo "release: no libstdc++.a (install g++: its libstdc++-N-dev has it)"; exit 1; fi; \
	mkdir -p $(@D) && ln -sf "$$archive" $@

# The functions the release daemon runs from exec to READY with the shipped config, then
# while it plays two seconds of ten fingers, from a callgrind profile (needs valgrind).
# Rerun after large changes or a new toolchain; a stale file only orders less well.
release-order: release bench-tools
	$(BENCH_SCRATCH)/release/BenchRecordings ten-fingers .build/release-order.evemu 2
	python3 Benchmarks/scripts/startup-order.py --daemon .build/release/gestured \
	  --config config/gestures.toml --replay .build/release-order.evemu --out $(RELEASE_ORDER)
