// SwiftPM builds a C target from its sources: this one compiles the header on its own, so its
// asserts hold even before the host includes it.
#include "CJSONItem.h"
