extension TemplateDescription {
    /// Adobe's timer template: a countdown, and what shows once it has run out.
    static let timer = TemplateDescription(
        name: "timer", type: "timer", onIOS: true, scope: .timer,
        fields: [
            IntentField("timer", .object(IntentObject([
                IntentField("duration", .integer(minimum: 1), "Seconds to count down from delivery."),
                IntentField("endsAt", .integer(minimum: 0), "Epoch time, in seconds, the countdown ends at."),
            ], exclusive: [["duration", "endsAt"]], oneRequired: [["duration", "endsAt"]])), "Countdown (timer template)."),
            IntentField("expired", .object(IntentObject([
                IntentField("title", IntentSchema.text, "Title once the timer has run out."),
                IntentField("body", IntentSchema.text, "Body once the timer has run out."),
                IntentField("expandedBody", IntentSchema.text, "Expanded body once the timer has run out (Android)."),
                IntentField("image", IntentSchema.text, "Image once the timer has run out."),
            ])), "What a timer notification shows after it expires."),
        ],
        ownedInside: ["colors.timer"],
        keys: [
            Key(.timerColour, "colors.timer", .both, .colour),
            Key(.timerDuration, "timer.duration", .both, .integer(minimum: 1)),
            Key(.timerEnd, "timer.endsAt", .both, .epochSeconds),
            Key(.titleAlt, "expired.title", .both),
            Key(.bodyAlt, "expired.body", .both),
            Key(.bodyExAlt, "expired.expandedBody", .fcm),
            Key(.imageAlt, "expired.image", .fcm),
            Key(.mediaAlt, "expired.image", .apns),
        ])
}
