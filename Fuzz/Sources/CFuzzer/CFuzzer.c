// The declaration only: libFuzzer itself is linked by mk/fuzz.mk.
#include "CFuzzer.h"
