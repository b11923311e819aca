# The unit and integration tests under AddressSanitizer and ThreadSanitizer. Each
# sanitizer builds into its own scratch path, so the normal .build stays as it is.
# `make sanitize` runs both; `make asan` / `make tsan` one. SANITIZE_FILTER=REGEX narrows
# the run (swift test --filter).

SANITIZE_FILTER ?=
# The Swift backtracer can hang a process that crashes under a sanitizer; the sanitizer's
# own report is the one wanted.
SANITIZE_ENV := SWIFT_BACKTRACE=enable=no \
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:suppressions=$(CURDIR)/mk/sanitize/asan.supp \
  LSAN_OPTIONS=suppressions=$(CURDIR)/mk/sanitize/lsan.supp \
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$(CURDIR)/mk/sanitize/tsan.supp

# Left out of sanitizer runs, with the reason:
# - AllocationTests (both suites): the probes run under the malloc interposer (LD_PRELOAD),
#   which cannot stand in for the sanitizer's own malloc; they count allocations, which a
#   sanitizer's runtime makes of its own.
# - StartupMemoryTests, ReloadMemoryTests, ConfigBoundsTests: they bound resident memory
#   (ConfigBoundsTests: 64 MiB for gesturectl check on hostile files), which shadow memory
#   and the freed-memory quarantine inflate (68 to 101 MiB under ASan); the same inputs
#   pass under the sanitizer otherwise, and the fuzz targets cover the parser under ASan.
# - CResourceLeakTests: they bound heap in use after freeing C resources, which the
#   quarantine holds back (13 MiB); LeakSanitizer checks the same at exit, directly.
SANITIZE_SKIP := --skip 'AllocationTests' --skip 'StartupMemoryTests' --skip 'ReloadMemoryTests' \
  --skip 'ConfigBoundsTests' --skip 'CResourceLeakTests'

.PHONY: sanitize asan tsan

# make test (CI) runs ASan (`asan`) after the other tiers: about 4 minutes to build and 1 to run on
# a loaded 2-core machine. ASan is the one that finds what this code can get wrong: it
# hands pointers to libevdev, libudev, libmtdev and toml++ and reads kernel structs through
# unsafe buffers. The daemon is one thread on one epoll loop, so TSan (6 minutes to build)
# can only find races in the test harness's threads; it stays in `make sanitize`.

sanitize: asan tsan

asan: apt-deps
	$(SANITIZE_ENV) $(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	$(SANITIZE_ENV) $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan $(SANITIZE_SKIP) \
	  $(if $(SANITIZE_FILTER),--filter '$(SANITIZE_FILTER)')

tsan: apt-deps
	$(SANITIZE_ENV) $(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SANITIZE_ENV) $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan $(SANITIZE_SKIP) \
	  $(if $(SANITIZE_FILTER),--filter '$(SANITIZE_FILTER)')
