---@meta
-- Lua Language Server annotations for pushmap's template scripts: the `pushmap` table, a
-- mapping's `ctx`, and the contract table a script returns. `pushmap scripts export` writes this
-- file, with the intent's fields after it, as types/pushmap.lua; an editor with the Lua Language
-- Server (VS Code's "Lua" extension, Neovim's lua_ls) then completes and checks them. It is never
-- run. Start a script's returned table with `---@type pushmap.Template` to have its mappings'
-- `intent` and `ctx` typed. The reference: docs/script-contract.md and docs/lua-api.md.

---Lua 5.5's table.create, which the sandbox adds to Lua 5.4: an empty table with room for `nseq`
---list items and `nrec` other keys, so that filling it never rebuilds it.
---@param nseq integer
---@param nrec? integer
---@return table
function table.create(nseq, nrec) end

---JSON null as a Lua value: a sentinel, truthy in Lua (test `v == pushmap.null`).
---@class pushmap.Null

---What the mapping of one platform gets besides the intent: a fresh table per call.
---@class pushmap.Context
---@field platform "fcm"|"apns" The mapping being run.
---@field template string The template being translated (the caller's, when another template calls this mapping).
---@field now integer The translation's time, epoch seconds (the clock, --now, or a fixture's now).
---@field api integer The host API version, 1.

---What the templates' base, owns and ignores say of one template.
---@class pushmap.Rules
---@field refuses string[] The fields it refuses: owned by a template it does not build on.
---@field owners table<string, string> Each owned field's template.
---@field ignores table<string, boolean> The fields it leaves out of its base's payload.
---@field ignoresInOrder string[] The same fields, in the order the script declares them.

---The table a template script returns: its contract.
---@class pushmap.Template
---@field name string The file name without .lua.
---@field api integer The host API version the script needs.
---@field platforms ("fcm"|"apns")[] The platforms it maps.
---@field fields? table<string, "string"|"integer"|"number"|"boolean"|"object"|"array"> Intent fields it adds.
---@field required? string[] Fields an intent of this template must give.
---@field base? string The template whose payload it starts from.
---@field owns? string[] Common intent fields that belong to it.
---@field ignores? string[] Fields its base reads that it leaves out: the host warns and hides them from its mappings.
---@field fcm? fun(intent: pushmap.Intent, ctx: pushmap.Context): table The FCM HTTP v1 request body.
---@field apns? fun(intent: pushmap.Intent, ctx: pushmap.Context): table The APNS payload.
---@field apnsHeaders? fun(intent: pushmap.Intent, payload: table, ctx: pushmap.Context): table<string, string> The APNS request headers, run only when a request form is asked for.

---The scripts' whole interface to the host.
---@class pushmaplib
pushmap = {}

---The host API version: 1.
---@type integer
pushmap.version = 1

---JSON null.
---@type pushmap.Null
pushmap.null = nil

---What each template's base, owns and ignores say of it, by name; read-only.
---@type table<string, pushmap.Rules>
pushmap.rules = {}

---Marks `t` as a JSON array (needed for an empty one) and returns it.
---@generic T: table
---@param t T
---@return T
function pushmap.array(t) end

---Marks `t` as a JSON object (needed for an empty one) and returns it.
---@generic T: table
---@param t T
---@return T
function pushmap.object(t) end

---Whether `t` carries the array mark.
---@param t any
---@return boolean
function pushmap.isarray(t) end

---Whether `t` carries the object mark.
---@param t any
---@return boolean
function pushmap.isobject(t) end

---The compact JSON text of `v`, object keys sorted.
---@param v any
---@return string
function pushmap.json(v) end

---The time `epoch` in UTC, with strftime's machine-independent conversions (ISO 8601 by default).
---@param epoch integer
---@param format? string
---@return string
function pushmap.date(epoch, format) end

---An intent colour (RRGGBB or RRGGBBAA, # optional) as iOS reads it: upper-case, no #.
---@param s string
---@return string
function pushmap.color(s) end

---An intent colour as Android reads it: upper-case, no #, alpha moved to the front (AARRGGBB).
---@param s string
---@return string
function pushmap.androidColor(s) end

---The value at a dotted path with 1-based [n] indexes, or `default` when a step is missing.
---@param t table
---@param path string
---@param default? any
---@return any
function pushmap.get(t, path, default) end

---The JSON path one step below `base`, as pushmap prints paths (a 0-based index for an integer).
---@param base string
---@param step string|integer
---@return string
function pushmap.path(base, step) end

---"WEBURL" for an http(s) uri, else "DEEPLINK".
---@param uri string
---@return "WEBURL"|"DEEPLINK"
function pushmap.linktype(uri) end

---The action type of a link, button, icon or star: its own `type`, else WEBURL or DEEPLINK from
---its `uri`, else `fallback`; and whether that type opens a uri the action does not give.
---@param action table
---@param fallback? string
---@return string|nil type
---@return boolean lacksUri
function pushmap.action(action, fallback) end

---Copies the intent's custom data into `into`: an error at $.data.KEY for each key
---pushmap.reserved refuses; on FCM, values other than strings JSON-encoded.
---@param data table|nil
---@param into table
---@param platform "fcm"|"apns"
function pushmap.customdata(data, into, platform) end

---The payload of an APNS push type that is not an alert (ios.pushType voip, mdm, liveactivity...),
---with warnings for the fields it leaves out; nil for an alert push.
---@param intent pushmap.Intent
---@param ctx pushmap.Context
---@return table|nil
function pushmap.pushtype(intent, ctx) end

---Why `key` cannot be a custom key of the platform's payload, or nil when it can.
---@param key string
---@param platform "fcm"|"apns"
---@return string|nil
function pushmap.reserved(key, platform) end

---Reports a warning about the intent at a JSON path (`$.title`, 0-based indexes).
---@param path string
---@param message string
function pushmap.warn(path, message) end

---Reports an error about the intent at a JSON path: the translation fails once the mapping returns.
---@param path string
---@param message string
function pushmap.error(path, message) end

---Runs the template in force (a team's override if there is one) and returns its payload.
---@param name string
---@param platform "fcm"|"apns"
---@param intent pushmap.Intent
---@param ctx pushmap.Context
---@return table
function pushmap.map(name, platform, intent, ctx) end

---Runs the template that ships with pushmap, even when a script overrides it.
---@param name string
---@param platform "fcm"|"apns"
---@param intent pushmap.Intent
---@param ctx pushmap.Context
---@return table
function pushmap.builtin(name, platform, intent, ctx) end
