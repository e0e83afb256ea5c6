-- absent.lua: what stock Lua has and the sandbox leaves out.
--
-- Runs once per Lua state, trusted, after the prelude and before the globals are sealed. Reading
-- one of these names says so at the script's line, where it would be nil and fail as "attempt to
-- call a nil value (global 'require')". It is raised when the name is read, in the script's own
-- frame, so a tail call (`return require(...)`) names the script's line too. Other missing
-- globals stay nil, and a defined global never reaches the metamethod: it costs nothing.

local format, error, setmetatable = string.format, error, setmetatable

-- Each name, and what to say after the sentence all share.
local ABSENT = {
  require = "", dofile = "", loadfile = "", io = "", os = "; the time is ctx.now", debug = "", coroutine = "", package = "",
}

setmetatable(_G, { __index = function(_, key)
  local hint = ABSENT[key]
  if hint then
    error(format("%s is not available in pushmap's sandbox (no io, os, require, debug, coroutine, package, dofile or loadfile): a mapping works on its intent alone%s", key, hint), 2)
  end
end })
