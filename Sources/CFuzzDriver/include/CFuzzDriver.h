#ifndef CFUZZDRIVER_H
#define CFUZZDRIVER_H
#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry for programs that keep their own main (libclang_rt.fuzzer_no_main), which
// SwiftPM executables must: they are linked with main defined as the module's entry point.
// Only referenced in builds made by scripts/fuzz, which link that library.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
