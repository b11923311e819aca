#pragma once
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (libclang_rt.fuzzer_no_main): runs the fuzzing loop with `callback`
/// as the target, taking libFuzzer's options from argc/argv.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
