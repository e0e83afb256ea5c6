// Debian's liblua5.4-dev (pkg-config lua5.4) or Homebrew's lua: the headers live in a lua5.4 folder
// that pkg-config puts on the include path.
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
