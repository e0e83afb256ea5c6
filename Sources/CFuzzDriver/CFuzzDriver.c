// Declarations only (see include/CFuzzDriver.h); SwiftPM wants a source file in a C target.
#include "CFuzzDriver.h"
