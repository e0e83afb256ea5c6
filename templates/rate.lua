-- rate: Adobe's product rating push template (adb_template_type "rate"): three to five stars, each
-- with its own action once the user confirms. Android only. Built on basic
-- (pushmap.builtin("basic", ...)), without its buttons and remind-later button. iOS has no such
-- template: the APNS payload is basic's, the best iOS shows of it.

local builtin, warn, fail = pushmap.builtin, pushmap.warn, pushmap.error
local array, json = pushmap.array, pushmap.json

local NONE = {} -- stands for an absent object; never written to

-- The stars as adb_rate_act entries {type, uri}, each with its action type (pushmap.action).
local function actions(stars)
  local list = table.create(#stars) -- room for every star: a list that grows is rebuilt
  for i = 1, #stars do
    local star = stars[i]
    local kind, lacksUri = pushmap.action(star, "OPENAPP")
    if lacksUri then
      pushmap.error("$.rating.stars[" .. (i - 1) .. "].uri", "a " .. kind .. " star needs a uri: one star without it makes Android show no rating at all")
    end
    list[i] = { type = kind, uri = star.uri }
  end
  return array(list)
end

local function fcm(intent, ctx)
  local payload = builtin("basic", "fcm", intent, ctx)
  local data = payload.message.data
  data.adb_template_type = "rate"

  local rating = intent.rating
  if rating == nil then
    fail("$.rating", "the rate template needs a rating: the star icons and three to five stars")
    rating = NONE
  end
  data.adb_rate_unselected_icon = rating.unselectedIcon
  data.adb_rate_selected_icon = rating.selectedIcon
  if rating.stars ~= nil then data.adb_rate_act = json(actions(rating.stars)) end
  return payload
end

local function apns(intent, ctx)
  warn("$.template", "iOS has no product rating template: it shows a basic notification without the stars")
  return builtin("basic", "apns", intent, ctx)
end

return {
  name = "rate",
  api = 1,
  platforms = { "fcm", "apns" },
  base = "basic",
  owns = { "rating" },
  ignores = { "buttons", "remindLater" },
  fcm = fcm,
  apns = apns,
}
