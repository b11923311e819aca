// Intentionally empty: SwiftPM needs one source file to build the C target.
#include "CLinuxShims.h"
