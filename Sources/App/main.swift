import Dispatch
import FavoritesScreens
import FeatureKit
import Foundation
import HTTPServer
import HomesAPI
import HomesScreens
import Inquiry
import LineEditing
import ListingsScreens
import LoginScreens
import Mediator
import Networking
import OperationLogs
import Persistence
import SavedSearches

// homes: a property-listing browser in the terminal, built on the package's architecture.

/// The features of homes, one line each, in the order `help` lists their commands. The
/// rest of this file composes them without naming any.
@MainActor
enum Homes {
    static let features: [any Feature] = [
        ListingsFeature(),
        SavedSearchesFeature(),
        LoginFeature(),
        FavoritesFeature(),
        InquiryFeature(),
        OperationLogsFeature(),
    ]
}

let usage = """
    usage: homes [--api URL] [--db PATH] [--latency MS] [--seed N] [--now SECONDS]
           homes serve [--port N] [--seed N]
           homes --help | --version

      serve          serve the embedded API over HTTP on 127.0.0.1 (port 0 picks a free
                     one; the first line printed is the URL), until SIGINT or SIGTERM
      --api URL      use the HTTP API at URL instead of the embedded one
      --db PATH      keep what is saved (favourites, searches) in the SQLite file PATH,
                     in a folder that exists
                     (default: ~/.local/share/homes/homes.sqlite); a write-protected
                     file or folder is opened read-only
      --latency MS   delay every embedded API response by MS milliseconds, 0 to 10000
                     (default 0)
      --seed N       seed of the embedded API's generated listings (default 7)
      --now SECONDS  show times as if the clock read SECONDS since 1970 (for transcripts;
                     what is stored keeps the real time)
      --port N       with serve: the port to listen on (default 8080)
      --help         show this text
      --version      show the version
      Flags take their value as the next word or after '=' (--db=PATH).

    Commands are listed by `help` inside the session. With input piped in, each line is
    answered once its work has settled (with --now, output is deterministic); error lines
    go to standard error and the exit status is 1 if any command failed. Ctrl-C stops the
    work in flight; quit or Ctrl-D leaves. Commands on one line,
    separated by `;`, run without waiting for each other (`refresh; filter rooms 2`
    cancels the refresh); `ask` takes the rest of its line.
    """

struct UsageError: Error {
    let message: String
}

struct Options {
    var serve = false
    var port: UInt16 = 8080
    var apiURL: URL?
    var databasePath: String?
    var latency = 0
    var seed: UInt64 = 7
    var now: Date?
}

/// What the command line asks for: a session or server with options, or a text to print.
enum Request {
    case run(Options)
    case show(String)
}

let version = "homes \(releaseVersion)"

func parseOptions(_ arguments: [String]) -> Result<Request, UsageError> {
    var options = Options()
    // `--flag=value` is `--flag value`.
    let words = arguments.flatMap { argument -> [String] in
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return [argument] }
        return [String(argument[..<equals]), String(argument[argument.index(after: equals)...])]
    }
    var iterator = words.makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--help", "-h":
            return .success(.show(usage))
        case "--version":
            return .success(.show(version))
        case "serve" where !options.serve:
            options.serve = true
        case "--port":
            guard let text = iterator.next(), let port = UInt16(text) else {
                return .failure(UsageError(message: "--port needs a port number from 0 to 65535"))
            }
            options.port = port
        case "--api":
            guard let text = iterator.next(), let url = URL(string: text), url.scheme == "http" || url.scheme == "https"
            else {
                return .failure(UsageError(message: "--api needs an http:// or https:// URL"))
            }
            options.apiURL = url
        case "--db":
            guard let path = iterator.next(), !path.isEmpty else {
                return .failure(UsageError(message: "--db needs a file path"))
            }
            options.databasePath = path
        case "--latency":
            guard let text = iterator.next(), let value = Int(text), (0...10_000).contains(value) else {
                return .failure(UsageError(message: "--latency needs a number of milliseconds from 0 to 10000"))
            }
            options.latency = value
        case "--seed":
            guard let text = iterator.next(), let value = UInt64(text) else {
                return .failure(UsageError(message: "--seed needs a number"))
            }
            options.seed = value
        case "--now":
            guard let text = iterator.next(), let value = Int(text), value >= 0 else {
                return .failure(UsageError(message: "--now needs a number of seconds since 1970"))
            }
            options.now = Date(timeIntervalSince1970: TimeInterval(value))
        default:
            return .failure(UsageError(message: "unknown option \(argument)"))
        }
    }
    return .success(.run(options))
}

let options: Options
switch parseOptions(Array(CommandLine.arguments.dropFirst())) {
case .success(.run(let parsed)):
    options = parsed
case .success(.show(let text)):
    print(text)
    exit(0)
case .failure(let error):
    FileHandle.standardError.write(Data("homes: \(error.message)\nrun homes --help for the options\n".utf8))
    exit(2)
}

// The app's configuration: the signing secret comes from the environment, with a demo
// default that only the embedded API knows.
let secret = Array((ProcessInfo.processInfo.environment["HOMES_SECRET"] ?? "homes-demo-secret").utf8)
let terminal = Terminal.current()
// Shown times follow `--now` when given (transcripts stay stable from run to run);
// whatever is stored is stamped with the real time.
let shownNow = options.now
let now: @Sendable () -> Date = { shownNow ?? Date() }
// Served over HTTP it remembers up to a million nonces (32 MiB); in this process, a
// person's requests need a few thousand.
let embedded = HomesAPIServer(
    seed: options.seed, secret: secret, nonceCapacity: options.serve ? 1 << 21 : 1 << 14,
    updatedBefore: now())

// `homes serve`: the embedded API over real HTTP, for `homes --api` and other clients.
if options.serve {
    // A forged request is refused from its head when its signature fields cannot hold,
    // before the server reads its body (Docs/Signing.md).
    let server = LoopbackHTTPServer(port: options.port, screen: { embedded.screen($0) }) { embedded.handle($0) }
    do {
        try server.start()
    } catch {
        FileHandle.standardError.write(Data("homes: \(error)\n".utf8))
        exit(1)
    }
    // Serves until SIGINT or SIGTERM, whatever standard input is: listening before the
    // announcement, so a signal sent as soon as it is read is not lost.
    let stop = ProcessSignals.latch([SIGINT, SIGTERM])
    FileHandle.standardOutput.write(Data("serving http://127.0.0.1:\(server.port)/api\n".utf8))
    await stop.wait()
    server.stop()
    exit(0)
}
let baseURL = options.apiURL ?? URL(string: "http://embedded.homes/api")!
let transport: any HTTPTransport =
    options.apiURL == nil
    ? InProcessTransport(latency: .milliseconds(options.latency)) { embedded.handle($0) }
    : URLSessionTransport()
let composition = Composition(Homes.features)
// The server's codes for a signature it refuses: missing or mismatched, stale, replayed,
// a signing header repeated.
let api = APISettings(baseURL: baseURL, signatureRejectedCodes: [4010, 4011, 4012, 4013], signingSecret: secret)
// The features' services, and the app's own account service (its route patch; the
// features that sign in, ask and log call it too).
let engine = APIEngine(
    services: ServiceRegistry(
        composition.services(api)
            + [
                APIService(
                    name: "account", baseURL: api.baseURL, signatureRejectedCodes: api.signatureRejectedCodes,
                    signingSecret: api.signingSecret)
            ]
    ),
    transport: transport
)

// What the features save lives in SQLite; a database that cannot be used is reported,
// not fatal. Only the default folder is created: a `--db` folder that is missing is
// reported instead.
let databasePath =
    options.databasePath
    ?? {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSTemporaryDirectory()
        let folder = URL(fileURLWithPath: home).appendingPathComponent(".local/share/homes")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("homes.sqlite").path
    }()
let database = DatabaseRegistry.shared.database(at: databasePath)
do {
    try Migrator(composition.migrations).migrate(database)
    if try database.isReadOnly {
        FileHandle.standardError.write(
            Data("homes: \(databasePath) is read-only: what is saved can be listed, not changed\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("homes: what is saved is unavailable: \(error)\n".utf8))
}
let context = FeatureContext(engine: engine, database: database, now: now)
// Made at start: what an earlier run logged and did not upload goes up now.
let screenObservers = composition.screenObservers(context)

// The last route patch is kept in the app's state folder, beside the line history.
let patchStore = LineHistory.stateFolder(appName: "homes", environment: ProcessInfo.processInfo.environment)
    .map { FileRoutePatchStore(url: $0.appendingPathComponent("routes.json")) }
let mediator = Mediator(scheme: "homes", patchStore: patchStore)
composition.register(in: mediator, with: context)
let routes = RoutePatchLoader(engine: engine, mediator: mediator) { problem in
    FileHandle.standardError.write(Data("homes: \(problem)\n".utf8))
}
// The first screen is asked of the mediator like any other; its first page starts loading.
let session = Session(
    root: composition.home(mediator),
    shared: composition.commands(mediator, then: [AppCommands(mediator: mediator, reachability: engine.reachability)]),
    terminal: terminal, lifecycle: screenObservers,
    writeError: { FileHandle.standardError.write(Data($0.utf8)) }
) { text in
    FileHandle.standardOutput.write(Data(text.utf8))
}

// Ctrl-C stops the work in flight (at the line editor's prompt it clears the line);
// SIGTERM and SIGHUP leave cleanly: terminal restored, database closed.
let interrupts = ProcessSignals.watch([SIGINT]) { session.interrupt() }
let endings = ProcessSignals.watch([SIGTERM, SIGHUP]) {
    TerminalRestorer.restore()
    DatabaseRegistry.shared.closeAll()
    exit(0)
}
// A resize lays the screen and the line being edited out again at once.
let resizes = ProcessSignals.watch([SIGWINCH]) { session.resize(width: Terminal.current().width) }
// The route patch applies before the first command, so piped sessions stay deterministic.
if terminal.isInteractive {
    await session.runInteractively { await routes.load() }
} else {
    await session.run(from: .piped { readLine() }) { await routes.load() }
}
withExtendedLifetime((interrupts, endings, resizes)) {}
DatabaseRegistry.shared.closeAll()
// A piped script tells its caller whether every command worked.
exit(!terminal.isInteractive && session.hadErrors ? 1 : 0)
