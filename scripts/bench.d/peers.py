"""The peers on the same content as pushmap-bench's intent: firebase-admin (build, encode,
json.dumps) per FCM message, apns2 (build, dict, json.dumps) per APNS payload."""
import json, statistics, sys, time

from firebase_admin import messaging
from firebase_admin._messaging_encoder import MessageEncoder
from apns2.payload import Payload, PayloadAlert

n = int(sys.argv[1])
TOKEN = "bk3RNwTe3H0:CI2k_HHwgIpoDKCIZvvDMExUdFQ3P1vNpZ_3PYrb3ahPkXcHXQ0bU4lJBTzIQw4gnkvCZ6K6cRNBgtxQRfyp1MEuN2gGFIPmpfVuLMXuKPOy28PTUmgm61pY0fpTIY7ls18yWp7mWRYbvELXE8NcIHDqmCFc0gSFrRPqw"

def fcm():
    data = {
        "adb_version": "1", "adb_template_type": "basic", "adb_title": "game request",
        "adb_body": "shall we play a game?", "adb_sound": "bingBong", "adb_small_icon": "ic_knight",
        "adb_large_icon": "https://pictureofchess.com/logo.png", "adb_n_count": "1",
        "adb_n_priority": "PRIORITY_LOW", "adb_channel_id": "a3b80ef",
        "adb_image": "https://pictureofchess.com/board.png", "adb_uri": "https://chess.com/games",
        "adb_a_type": "WEBURL",
        "adb_act": json.dumps([{"label": "accept", "uri": "https://chess.com/games/552", "type": "DEEPLINK"},
                               {"label": "decline", "type": "OPENAPP"}], separators=(",", ":")),
        "adb_tag": "24", "adb_sticky": "true", "adb_ticker": "Play a game?",
        "adb_body_ex": "Bob wants to play a game of chess with you. Click 'accept' to start!",
        "adb_clr_body": "00EE00", "adb_clr_title": "AABBCC", "adb_clr_icon": "123456", "adb_clr_bg": "000000",
        "adb_rem_txt": "Remind me", "adb_rem_ts": "1893456000",
        "game_id": "552", "opponent": "bob", "campaign": "winter-chess-2026", "rating": "1480", "ranked": "true",
    }
    message = messaging.Message(data=data, token=TOKEN, android=messaging.AndroidConfig(collapse_key="new message"))
    return json.dumps({"message": MessageEncoder().default(message)}, sort_keys=True)

def apns():
    alert = PayloadAlert(title="game request", body="shall we play a game?")
    custom = {"adb_template_type": "basic", "adb_version": "1",
              "adb_body_ex": "Bob wants to play a game of chess with you. Click 'accept' to start!",
              "adb_media": "https://pictureofchess.com/board.png", "adb_uri": "https://chess.com/games",
              "adb_clr_title": "AABBCC", "adb_clr_body": "00EE00", "adb_clr_bg": "000000",
              "game_id": "552", "opponent": "bob", "campaign": "winter-chess-2026", "rating": 1480, "ranked": True}
    payload = Payload(alert=alert, sound="bingBong", badge=1, category="AEPNotification", mutable_content=True, custom=custom)
    return json.dumps(payload.dict(), sort_keys=True)

def measure(name, body):
    for _ in range(min(1000, n)):
        body()
    samples = []
    for _ in range(max(1, n // 50)):
        start = time.perf_counter()
        for _ in range(50):
            body()
        samples.append((time.perf_counter() - start) / 50 * 1e6)
    samples.sort()
    print(f"{name}: median {statistics.median(samples):.1f} µs, p90 {samples[len(samples) * 9 // 10]:.1f} µs")

if n > 1:
    measure("firebase-admin FCM message (build, encode, json.dumps)", fcm)
    measure("apns2 APNS payload (build, dict, json.dumps)", apns)
else:
    fcm(); apns()
