-- carousel: Adobe's carousel push template (adb_template_type "car"): three to five images with
-- captions and links. Built on basic (pushmap.builtin("basic", ...)); the items replace the
-- single image, and the buttons and remind-later button are left out.

local pushmap = pushmap
local builtin, warn, fail = pushmap.builtin, pushmap.warn, pushmap.error
local array, json, path = pushmap.array, pushmap.json, pushmap.path

local NONE = {} -- stands for an absent object; never written to

local function itemPath(i, field)
  return path(path("$.carousel.items", i - 1), field)
end

-- The items as {img, txt, uri}. `auto`: the items are for Android's auto mode, which opens
-- nothing for an item without a uri, so such an item gets `linkUri` (with a warning). With no
-- link either, the payload check says so (android-carousel-item-uri).
local function items(carousel, auto, linkUri)
  local given = carousel.items or NONE
  local list = table.create(#given) -- room for every item: a list that grows is rebuilt each time
  for i = 1, #given do
    local item = given[i]
    local uri = item.uri
    if uri == nil and auto and linkUri ~= nil then
      uri = linkUri
      warn(itemPath(i, "uri"), "an auto carousel item without a uri opens nothing on Android: link.uri is used")
    end
    list[i] = { img = item.image, txt = item.text, uri = uri }
  end
  if #given == 0 and carousel ~= NONE then -- (NONE: carouselOf reported the missing carousel)
    fail("$.carousel.items", "a carousel needs items (three to five images)")
  end
  return array(list)
end

-- The intent's carousel, or an error when it has none.
local function carouselOf(intent)
  local carousel = intent.carousel
  if carousel == nil then
    fail("$.carousel", "the carousel template needs a carousel with three to five items")
    return NONE
  end
  return carousel
end

local function dropImage(payload, key, intent)
  if intent.image ~= nil then
    payload[key] = nil
    warn("$.image", "image is ignored by the carousel template (its items carry the images)")
  end
end

local function fcm(intent, ctx)
  local payload = builtin("basic", "fcm", intent, ctx)
  local data = payload.message.data
  data.adb_template_type = "car"
  dropImage(data, "adb_image", intent)

  local carousel = carouselOf(intent)
  local mode = carousel.mode
  data.adb_car_mode = mode
  data.adb_car_layout = carousel.layout or "default" -- Android does not show a carousel without it
  -- Android's carousel is auto unless adb_car_mode says otherwise. Fewer than three images is
  -- the payload checks' one finding (android-carousel-items-count), not this script's too.
  data.adb_items = json(items(carousel, mode == nil or mode == "auto", (intent.link or NONE).uri))
  return payload
end

local function apns(intent, ctx)
  local payload = builtin("basic", "apns", intent, ctx)
  payload.adb_template_type = "car"
  dropImage(payload, "adb_media", intent)

  -- iOS's carousel shows the body under an item without text, never the expanded body.
  if payload.adb_body_ex ~= nil then
    payload.adb_body_ex = nil
    warn("$.expandedBody", "expandedBody is not shown by iOS's carousel: an item without text shows the body")
  end

  local carousel = carouselOf(intent)
  payload.adb_car_mode = carousel.mode
  local list = items(carousel, false)
  -- iOS opens the app for an item without a uri, Android the link's: the link's uri on both
  -- (the one basic kept: an OPENAPP link's is left out).
  local linkUri = payload.adb_uri
  if linkUri ~= nil then
    for i = 1, #list do
      if list[i].uri == nil then list[i].uri = linkUri end
    end
  end
  payload.adb_items = list
  return payload
end

return {
  name = "carousel",
  api = 1,
  platforms = { "fcm", "apns" },
  base = "basic",
  owns = { "carousel" },
  ignores = { "buttons", "remindLater" },
  fcm = fcm,
  apns = apns,
}
