// The peer pushmap's batch is measured against (issue 28): the basic template mapped by hand in
// Node, as a team would write it with no pushmap: JSON.parse, object literals, JSON.stringify,
// streamed line by line. No checks and no scripts. Object literals list keys in sorted order, so
// the payloads are byte for byte what `pushmap batch --platform both` writes (the bench compares).
//   node node-peer.js < intents.ndjson > lines.ndjson
"use strict";

const COLOR_KEYS = [["background", "adb_clr_bg"], ["body", "adb_clr_body"], ["icon", "adb_clr_icon"], ["title", "adb_clr_title"]];

function color(value) {
  return (value[0] === "#" ? value.slice(1) : value).toUpperCase();
}

function actionType(uri) {
  return /^https?:/i.test(uri) ? "WEBURL" : "DEEPLINK";
}

function fcm(intent) {
  const android = intent.android || {};
  const colors = intent.colors || {};
  const data = {};
  // Keys added in sorted order: JSON.stringify keeps insertion order.
  if (intent.link) data.adb_a_type = intent.link.type || actionType(intent.link.uri);
  if (intent.buttons) {
    data.adb_act = JSON.stringify(intent.buttons.map((b) =>
      b.uri === undefined ? { label: b.label, type: b.type || "OPENAPP" } : { label: b.label, type: b.type || actionType(b.uri), uri: b.uri }));
  }
  if (intent.body !== undefined) data.adb_body = intent.body;
  if (intent.expandedBody !== undefined) data.adb_body_ex = intent.expandedBody;
  if (android.channel !== undefined) data.adb_channel_id = android.channel;
  for (const [key, name] of COLOR_KEYS) if (colors[key] !== undefined) data[name] = color(colors[key]);
  if (intent.image !== undefined) data.adb_image = intent.image;
  if (android.largeIcon !== undefined) data.adb_large_icon = android.largeIcon;
  if (intent.badge !== undefined) data.adb_n_count = String(intent.badge);
  if (android.priority !== undefined) data.adb_n_priority = "PRIORITY_" + android.priority.toUpperCase();
  if (intent.remindLater) {
    if (intent.remindLater.at !== undefined) data.adb_rem_ts = String(intent.remindLater.at);
    data.adb_rem_txt = intent.remindLater.label;
  }
  if (android.smallIcon !== undefined) data.adb_small_icon = android.smallIcon;
  if (intent.sound !== undefined) data.adb_sound = intent.sound;
  if (android.sticky !== undefined) data.adb_sticky = String(android.sticky);
  if (android.tag !== undefined) data.adb_tag = android.tag;
  data.adb_template_type = "basic";
  if (android.ticker !== undefined) data.adb_ticker = android.ticker;
  if (intent.title !== undefined) data.adb_title = intent.title;
  if (intent.link) data.adb_uri = intent.link.uri;
  data.adb_version = intent.version || "1";
  const message = {};
  if (android.collapseKey !== undefined) message.android = { collapse_key: android.collapseKey };
  message.data = data;
  if (intent.target && intent.target.token !== undefined) message.token = intent.target.token;
  return { message };
}

function apns(intent) {
  const colors = intent.colors || {};
  const payload = {};
  if (intent.expandedBody !== undefined) payload.adb_body_ex = intent.expandedBody;
  if (colors.background !== undefined) payload.adb_clr_bg = color(colors.background);
  if (colors.body !== undefined) payload.adb_clr_body = color(colors.body);
  if (colors.title !== undefined) payload.adb_clr_title = color(colors.title);
  if (intent.image !== undefined) payload.adb_media = intent.image;
  payload.adb_template_type = "basic";
  if (intent.link) payload.adb_uri = intent.link.uri;
  payload.adb_version = intent.version || "1";
  const alert = {};
  if (intent.body !== undefined) alert.body = intent.body;
  if (intent.title !== undefined) alert.title = intent.title;
  const aps = { alert };
  if (intent.badge !== undefined) aps.badge = intent.badge;
  aps.category = "AEPNotification";
  aps["mutable-content"] = 1;
  if (intent.sound !== undefined) aps.sound = intent.sound;
  payload.aps = aps;
  return payload;
}

let number = 0;
let rest = "";
let out = [];
let outLength = 0;

function flush() {
  if (out.length) process.stdout.write(out.join(""));
  out = [];
  outLength = 0;
}

function line(text) {
  number += 1;
  let answer;
  try {
    const intent = JSON.parse(text);
    answer = JSON.stringify({ line: number, fcm: fcm(intent), apns: apns(intent) });
  } catch (error) {
    answer = JSON.stringify({ line: number, error: { message: String(error.message) } });
  }
  out.push(answer, "\n");
  outLength += answer.length;
  if (outLength > 1 << 16) flush();
}

process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (rest + chunk).split("\n");
  rest = lines.pop();
  for (const text of lines) if (text.length) line(text);
});
process.stdin.on("end", () => {
  if (rest.length) line(rest);
  flush();
});
