internal import ArgumentParser
@_spi(Tools) internal import Pushmap
internal import PushmapJSON
internal import PushmapPreview
@_spi(Tools) internal import PushmapTooling

/// `pushmap preview`: what each phone shows of an intent's payloads, as text, an HTML page or a
/// PNG; or, with `--gallery`, every intent and fixture of a folder on one page; or, with
/// `--recipients`, the longest renderings of a campaign's audience on one page.
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Draw what each phone shows of an intent: collapsed and expanded, per template, with what it does with each key.",
        discussion: """
        FILE is an intent, or a template's fixture ({"intent": ..., "fcm"/"apns"/"error": ..., "now": ...}), \
        whose intent is drawn at the fixture's "now" (not --now) for the platforms it gives payloads for. \
        With no --output, a text form for the terminal. --output FILE.html writes one self-contained page \
        (no script, nothing fetched); --output FILE.png draws that page with headless Chromium. \
        --recipients draws, on one gallery page, the --longest recipients of a campaign, each labelled \
        with its line, id and locale and with its warnings (texts cut to fit, locale fallback, \
        variables rendered empty with --lenient); recipients whose line is an error are listed with it. \
        Exit status: 0 drawn, 1 invalid input (no page written; with --gallery or --recipients, an entry \
        that should translate did not, the page is still written), 2 a mapping script failed, \
        3 no headless browser for a PNG or it failed, 64 a usage error.
        """
    )

    @Option(name: .long, help: "fcm, apns, or both.")
    var platform: PlatformChoice = .both

    @OptionGroup var scriptOptions: ScriptOptions

    @Option(name: .long, help: ArgumentHelp("Write an HTML page (.html) or a picture of it (.png) instead of text.", valueName: "file"), completion: .file(extensions: ["html", "png"]))
    var output: String?

    @Flag(name: .long, help: "Embed images that are local files (a path or file:// URL) as data URIs; other URLs stay frames.")
    var images = false

    @Option(name: .long, help: ArgumentHelp("Draw every intent and fixture in a folder (*.json, NAME.test/*.json) on one page.", valueName: "dir"), completion: .directory)
    var gallery: String?

    @OptionGroup var clock: ClockOption

    @Option(name: .long, help: ArgumentHelp("Draw what this campaign recipient sees (a file of one recipient line: id, target, platform, locale, vars): the intent's templates rendered, its locale's layer, texts cut to fit.", valueName: "file"), completion: .file(extensions: ["json"]))
    var recipient: String?

    @Option(name: .long, help: ArgumentHelp("Draw, on one gallery page, the recipients of this campaign file (NDJSON, - for standard input) whose texts render longest.", valueName: "file"), completion: .file(extensions: ["ndjson", "jsonl"]))
    var recipients: String?

    // Unconditional: `--longest -5` is refused with the range, as `--longest=-5` is (the
    // forty-third audit, F4: "Missing value").
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("With --recipients: how many to draw. Longest counts the characters of title, subtitle, body, expandedTitle and expandedBody as rendered, before any cut to fit (default 6).", valueName: "n"))
    var longest: Int?

    @Flag(name: .long, help: "With --recipient or --recipients: a variable a recipient lacks renders empty, with a warning, as campaign --lenient does.")
    var lenient = false

    @Option(name: .long, help: "Diagnostics as human lines or as JSON.")
    var format: OutputFormat = .human

    @Argument(help: ArgumentHelp("The intent file, or a fixture (NAME.test/CASE.json: drawn at its \"now\", for the platforms it expects); - or nothing for standard input.", valueName: "file"), completion: .file(extensions: ["json"]))
    var file: String?

    /// What `--output` asks for.
    private enum Destination {
        case terminal
        case page(String)
        case picture(String)
    }

    private var destination: Destination {
        guard let output else { return .terminal }
        let lower = output.lowercased()
        return lower.hasSuffix(".png") ? .picture(output) : .page(output)
    }

    func validate() throws {
        if gallery != nil, file != nil {
            throw ValidationError("give an intent FILE or --gallery DIR, not both")
        }
        if gallery != nil, recipient != nil || recipients != nil {
            throw ValidationError("--recipient and --recipients draw one intent FILE, not a --gallery")
        }
        if recipient != nil, recipients != nil {
            throw ValidationError("give --recipient FILE or --recipients FILE, not both")
        }
        if longest != nil, recipients == nil {
            throw ValidationError("--longest counts the recipients of --recipients FILE")
        }
        if let longest, longest < 1 || longest > Self.maxLongest {
            throw ValidationError("--longest must be between 1 and \(Self.maxLongest)")
        }
        if lenient, recipient == nil, recipients == nil {
            throw ValidationError("--lenient renders a campaign's recipients: give --recipient or --recipients")
        }
        if recipients == "-", file == nil || file == "-" {
            throw ValidationError("the intent and the recipients cannot both be standard input")
        }
        if let output {
            let lower = output.lowercased()
            guard lower.hasSuffix(".html") || lower.hasSuffix(".htm") || lower.hasSuffix(".png") else {
                throw ValidationError("--output must name a .html or .png file, not '\(output)'")
            }
        }
    }

    /// The most recipients one page draws.
    static let maxLongest = 100

    /// Whether the page lists entries: a folder's, or a campaign's recipients.
    private var drawsGallery: Bool { gallery != nil || recipients != nil }

    func run() throws {
        // Checked first, so no work is done for a page that cannot be written.
        if let output, let slash = output.lastIndex(of: "/") {
            let folder = slash == output.startIndex ? "/" : String(output[..<slash])
            guard FileSystem.isDirectory(folder) else {
                StandardStream.note("pushmap: \(output): no such folder: \(folder)")
                throw ExitStatus.invalid
            }
        }
        // --images embeds into a page or picture: with the text form it has nothing to do, and
        // was passed over unsaid (the forty-sixth audit, cli F16).
        if images, case .terminal = destination {
            StandardStream.note("pushmap: preview: --images embeds images into a page; it does nothing without --output FILE.html or FILE.png")
        }
        // A picture needs a browser: say so before any work.
        var browser: HeadlessBrowser?
        if case .picture = destination {
            do {
                browser = try HeadlessBrowser.find()
            } catch {
                StandardStream.note("pushmap: preview: \(error)")
                throw ExitStatus.noBrowser
            }
        }
        let translator = try scriptOptions.translator(format: format, now: clock.now, blameWarnings: true)
        let previewer = Previewer(translator: translator)
        let platforms = platform.platforms
        let previews: [NotificationPreview]
        let title: String
        var failedEntries = 0
        var recipientCount = 0
        var baseFolder: String?
        if let gallery {
            let paths: [String]
            do {
                paths = try PreviewGallery.files(in: gallery)
            } catch {
                StandardStream.note("pushmap: \(error)")
                throw ExitStatus.invalid
            }
            guard !paths.isEmpty else {
                StandardStream.note("pushmap: \(gallery): no intents or fixtures (*.json, NAME.test/*.json)")
                throw ExitStatus.invalid
            }
            previews = PreviewGallery(previewer: previewer, platforms: platforms).previews(of: paths)
            for preview in previews where PreviewGallery.isUnexpectedFailure(preview) {
                failedEntries += 1
                for line in preview.failure?.lines ?? [] { StandardStream.note("\(preview.name): \(line)") }
            }
            title = "pushmap gallery: \(gallery) (\(previews.count) entries)"
            baseFolder = gallery
        } else {
            let input = InputFile(file)
            let report = DiagnosticReport(format: format, file: input.name)
            let bytes: [UInt8]
            do {
                bytes = try input.read(limit: 1 << 20)
            } catch {
                StandardStream.note("pushmap: \(error)")
                throw ExitStatus.invalid
            }
            // A fixture's intent is drawn at the fixture's time, for the platforms it expects.
            let file: PreviewInput
            do {
                file = try PreviewInput.read(path: input.name, bytes: bytes)
            } catch {
                StandardStream.note("pushmap: \(error)")
                throw ExitStatus.invalid
            }
            do {
                switch file {
                case .intent(let intent):
                    if let recipient {
                        let campaign = try compile(intent, translator: translator, report: report)
                        previews = [try recipientPreview(campaign, recipient: recipient, name: input.name, translator: translator)]
                    } else if let recipients {
                        let campaign = try compile(intent, translator: translator, report: report)
                        let count = longest ?? 6
                        var audience = RecipientPreviews(campaign: campaign, translator: translator, platforms: platforms, lenient: lenient)
                        audience.template = (try? JSONParser.parse(intent))?["template"]?.stringValue ?? "plain"
                        let drawn = try audience.longest(count, of: InputFile(recipients))
                        previews = drawn.previews
                        failedEntries = drawn.failed
                        recipientCount = drawn.recipients
                    } else {
                        previews = [try previewer.preview(intent, name: input.name, platforms: platforms, failedChecks: true)]
                    }
                case .fixture where recipient != nil || recipients != nil:
                    StandardStream.note("pushmap: \(input.name): \(recipient != nil ? "--recipient" : "--recipients") draws an intent, not a fixture")
                    throw ExitStatus.invalid
                case .fixture where file.platforms(platforms).isEmpty:
                    StandardStream.note("pushmap: \(input.name): \(file.uncovered(platforms)): nothing to draw")
                    throw ExitStatus.invalid
                case .fixture(let fixture):
                    previews = [try previewer.preview(fixture.intent, name: input.name, platforms: file.platforms(platforms), now: fixture.now, failedChecks: true)]
                }
            } catch let error as TranslationError {
                report.emit(error.diagnostics, scriptError: error.scriptError)
                throw ExitCode(error.exitCode)
            }
            if let recipients {
                let drawn = previews.count { $0.failure == nil }
                title = "pushmap preview: \(input.name), the \(drawn) longest of \(recipients)"
            } else {
                report.emit(previews[0].diagnostics)
                title = "pushmap preview: \(input.name)"
            }
            if let path = input.path, let slash = path.lastIndex(of: "/") { baseFolder = String(path[..<slash]) }
        }

        var page = PreviewPage(title: title)
        if images {
            let urls = previews.reduce(into: Set<String>()) { $0.formUnion($1.imageURLs) }
            page.images = LocalImages.dataURIs(for: urls, baseFolder: baseFolder)
        }
        switch destination {
        case .terminal:
            do { try StandardStream.output.write(PreviewTextReport().text(previews)) } catch { throw ExitStatus.success }
        case .page(let path):
            do {
                try FileSystem.writeFile(Array(page.html(previews, gallery: drawsGallery).utf8), to: path)
            } catch {
                StandardStream.note("pushmap: \(error)")
                throw ExitStatus.invalid
            }
        case .picture(let path):
            // Chromium draws the window, not the page: a height that holds it, within reason.
            let height = min(page.estimatedHeight(previews, gallery: drawsGallery), PreviewPage.maxPictureHeight)
            do {
                try browser?.screenshot(html: page.html(previews, gallery: drawsGallery), width: PreviewPage.width, height: height, output: path)
            } catch {
                StandardStream.note("pushmap: preview: \(error)")
                throw error.unwritable ? ExitStatus.invalid : ExitStatus.noBrowser
            }
        }
        if failedEntries > 0, recipients != nil {
            StandardStream.note("pushmap: preview: \(failedEntries) of \(recipientCount) recipients did not translate")
            throw ExitStatus.invalid
        }
        if failedEntries > 0 {
            StandardStream.note("pushmap: preview: \(failedEntries) of \(previews.count) entries did not translate")
            throw ExitStatus.invalid
        }
        // Drawn as the phone takes it, but refused by a check: the errors said above, exit 1.
        if previews.contains(where: { $0.diagnostics.hasErrors }) { throw ExitStatus.invalid }
    }

    /// The intent compiled as `pushmap campaign` compiles it; what does not compile, or is
    /// wrong whoever receives it, is said at its path.
    private func compile(_ intent: [UInt8], translator: Translator, report: DiagnosticReport) throws -> Campaign {
        do {
            return try Campaign(intent: try JSONParser.parse(intent), translator: translator)
        } catch let error as CampaignError {
            report.emit(error.diagnostics)
            throw ExitStatus.invalid
        } catch let error as JSONParseError {
            report.emit([.jsonSyntax(error)])
            throw ExitStatus.invalid
        }
    }

    /// What one campaign recipient sees: rendered, translated and cut to fit as a campaign does it.
    private func recipientPreview(_ campaign: Campaign, recipient path: String, name: String, translator: Translator) throws -> NotificationPreview {
        let line: [UInt8]
        do {
            line = try InputFile(path).read(limit: translator.options.maxIntentBytes)
        } catch {
            StandardStream.note("pushmap: \(error)")
            throw ExitStatus.invalid
        }
        let limits = JSONParser.Limits(maxDepth: translator.options.maxIntentDepth, maxBytes: translator.options.maxIntentBytes)
        let (recipient, errors) = CampaignRecipient.read(line, limits: limits)
        if !errors.isEmpty {
            DiagnosticReport(format: format, file: path).emit(errors)
            throw ExitStatus.invalid
        }
        let recipients = RecipientPreviews(campaign: campaign, translator: translator, platforms: platform.platforms, lenient: lenient)
        return try recipients.preview(recipient, name: name).get()
    }
}
