-- input: Adobe's input box push template (adb_template_type "input"): a reply field under the
-- notification; the typed text reaches the app under `reply.key`. Android only (7.0 and later).
-- Built on basic (pushmap.builtin("basic", ...)), without its buttons and remind-later button.
-- iOS has no such template: the APNS payload is basic's, the best iOS shows of it.

local pushmap = pushmap
local builtin, warn, fail = pushmap.builtin, pushmap.warn, pushmap.error

local NONE = {} -- stands for an absent object; never written to

local function fcm(intent, ctx)
  local payload = builtin("basic", "fcm", intent, ctx)
  local data = payload.message.data
  data.adb_template_type = "input"

  local reply = intent.reply
  if reply == nil then
    fail("$.reply", "the input template needs reply.key, the name the app receives the typed text under (without it Android shows nothing)")
    reply = NONE
  end
  data.adb_input_receiver = reply.key
  data.adb_input_txt = reply.label
  data.adb_feedback_txt = reply.sentBody
  data.adb_feedback_img = reply.sentImage
  return payload
end

local function apns(intent, ctx)
  warn("$.template", "iOS has no input box template: it shows a basic notification without the reply field")
  return builtin("basic", "apns", intent, ctx)
end

return {
  name = "input",
  api = 1,
  platforms = { "fcm", "apns" },
  base = "basic",
  owns = { "reply" },
  ignores = { "buttons", "remindLater" },
  fcm = fcm,
  apns = apns,
}
