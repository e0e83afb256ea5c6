-- timer: Adobe's timer push template (adb_template_type "timer"): a countdown, and the content
-- shown once it has run out (`expired`). Built on basic (pushmap.builtin("basic", ...)), without
-- its buttons and remind-later button.

local pushmap = pushmap
local builtin, warn, fail = pushmap.builtin, pushmap.warn, pushmap.error
local color, androidColor = pushmap.color, pushmap.androidColor
local format = string.format

local NONE = {} -- stands for an absent object; never written to

-- The keys both platforms share, written into `into` (FCM's data map or the APNS payload);
-- `paint` is the platform's colour function. Returns the intent's `expired` object.
local function timerKeys(into, intent, ctx, paint)
  into.adb_template_type = "timer"

  local timer = intent.timer
  if timer == nil then
    fail("$.timer", "the timer template needs a timer with a duration or an endsAt")
    timer = NONE
  end
  if timer.duration ~= nil then into.adb_tmr_dur = format("%d", timer.duration) end
  local endsAt = timer.endsAt
  if endsAt ~= nil then
    -- An end already past is the payload checks' to report, for every script alike: a warning
    -- (Android drops it unless one with its tag is showing; iOS shows the expired content).
    into.adb_tmr_end = format("%d", endsAt)
  end

  local expired = intent.expired or NONE
  if expired.title == nil then
    fail("$.expired.title", "the timer template needs expired.title, the title once the timer has run out (without it Android shows nothing and iOS a fallback)")
  end
  into.adb_title_alt = expired.title
  into.adb_body_alt = expired.body

  local colors = intent.colors
  if colors ~= nil and colors.timer ~= nil then into.adb_clr_tmr = paint(colors.timer) end
  return expired
end

local function fcm(intent, ctx)
  local payload = builtin("basic", "fcm", intent, ctx)
  local data = payload.message.data
  local expired = timerKeys(data, intent, ctx, androidColor)
  data.adb_body_ex_alt = expired.expandedBody
  data.adb_image_alt = expired.image
  return payload
end

local function apns(intent, ctx)
  local payload = builtin("basic", "apns", intent, ctx)
  local expired = timerKeys(payload, intent, ctx, color)
  payload.adb_media_alt = expired.image
  return payload
end

return {
  name = "timer",
  api = 1,
  platforms = { "fcm", "apns" },
  base = "basic",
  owns = { "timer", "expired", "colors.timer" },
  ignores = { "buttons", "remindLater" },
  fcm = fcm,
  apns = apns,
}
