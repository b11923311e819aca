import GestureCore
import LinuxSystem
import Logging

/// The journal's `MESSAGE_ID` of each event an operator alerts on: fixed 128-bit ids, so
/// `journalctl -u gestured MESSAGE_ID=...` and log shippers select them without parsing
/// text. Listed in docs/LOGGING.md and explained by systemd/gestured.catalog
/// (`journalctl -x`); never change one, only add.
public enum MessageID: String, CaseIterable, Sendable {
    case reloadSucceeded = "aa45025688ae4b458398f9d0d676b0d2"
    case reloadRefused = "efddb5ae1aea492c92744a2a226f81cc"
    case panelAdded = "770191cf454444279d6a6691a67b911d"
    case panelRemoved = "b92a87968eca46f4ba9982efb1ff9a6e"
    case panelGrabbed = "0e89a81036be484792ae2b8fd610b0c7"
    case panelUnusable = "2c8c9cc061fa4e76bad4a6a3f1662f88"
    // The touch-health stage's verdicts on a panel.
    case panelNoisy = "2ab00f82238e4a9d8c0fa8e68a8e87b8"
    case panelSilent = "7552c6951d0e484f9bb830c3083104bd"
    case panelOK = "392f66379cc4404ca15faadbf8b82dcc"
    case actionFailed = "ea2faf1c1ec0468fb0392b429c363116"
    case actionTimedOut = "2aba43aa2adc4e838ca929e859efe96b"
    case limitReached = "afb6fa67544e48fd8f70cbb2d2e92376"
    case commandRefused = "aa6d588afe734b28ad87d0e0ed6b5843"
    case changesUndone = "d9d845e370334fad9f8271ad1845094e"
    /// A line a command action wrote to its stderr.
    case commandOutput = "f5f04e9e23a748bfb826ffdb7bdcbb49"
    /// A gesture was recognized (`[daemon] log_recognitions = true`).
    case gestureRecognized = "e9b4c0f68a38448fa042022db0c08d66"

    /// The fields every entry with this id carries, and those some carry (docs/LOGGING.md
    /// lists both; a test holds the entries and the doc to this).
    public var fields: (always: [String], sometimes: [String]) {
        let panel = [JournalField.device, JournalField.deviceName, JournalField.idPath]
        switch self {
        case .reloadSucceeded: return ([JournalField.configFile], [])
        case .reloadRefused: return ([JournalField.configFile, JournalField.error], [])
        case .panelAdded, .panelRemoved, .panelGrabbed, .panelUnusable: return (panel, [])
        case .panelNoisy, .panelSilent, .panelOK: return (panel + [JournalField.health, JournalField.healthReason], [])
        case .actionFailed, .actionTimedOut, .commandOutput: return ([JournalField.gesture], [])
        case .limitReached: return ([JournalField.limit], [JournalField.gesture])
        case .commandRefused: return ([JournalField.command, JournalField.clientPID, JournalField.clientUID], [])
        case .changesUndone: return ([JournalField.clientPID, JournalField.clientUID], [])
        case .gestureRecognized: return ([JournalField.gesture, JournalField.state, JournalField.time], panel)
        }
    }

    /// The health stage's verdict that a panel is now in `state`.
    public init(health state: HealthState) {
        switch state {
        case .ok: self = .panelOK
        case .noisy: self = .panelNoisy
        case .silent: self = .panelSilent
        }
    }
}

/// The panel an entry concerns, as the metrics label it: its kernel name (`device`), udev's
/// `ID_PATH` (`id_path`, the port: the same after a replug), and its device node now.
public struct JournalPanel: Sendable, Equatable {
    public var name: String
    public var path: String
    public var idPath: String

    /// `ID_PATH` from udev's `properties`; the node where udev has none (as the metrics do).
    public init(name: String, path: String, properties: [String: String]) {
        self.name = name
        self.path = path
        idPath = properties["ID_PATH"] ?? path
    }
}

/// Journal field names gestured sets besides journald's own: carried as swift-log
/// metadata under these keys. Keys spelled like journal fields (upper case, digits,
/// underscores) go only to the journal; on stderr's text they are left out.
public enum JournalField {
    public static let messageID = "MESSAGE_ID"
    /// The panel's device node (`/dev/input/event3`).
    public static let device = "GESTURED_DEVICE"
    /// The panel's kernel name: the metrics' `device` label.
    public static let deviceName = "GESTURED_DEVICE_NAME"
    /// udev's `ID_PATH` of the panel (the node without one): the metrics' `id_path` label.
    public static let idPath = "GESTURED_ID_PATH"
    /// The gesture's name from the config (for a health action, its owner
    /// `device 'NAME' on.STATE`).
    public static let gesture = "GESTURED_GESTURE"
    /// The config file (the main one; a drop-in's name is in the message).
    public static let configFile = "GESTURED_CONFIG_FILE"
    /// Why a reload was refused: every problem, one per line (`file:line:col: error: ...`).
    public static let error = "GESTURED_ERROR"
    /// Which bound was reached (`JournalLimit`).
    public static let limit = "GESTURED_LIMIT"
    /// A panel's health state (`ok`, `noisy`, `silent`: the metrics' `state` label).
    public static let health = "GESTURED_HEALTH"
    /// Why it changed, as a token (`HealthReason.name`); the numbers are in the message.
    public static let healthReason = "GESTURED_HEALTH_REASON"
    /// A recognition's event state (`recognized`, `began`: the metrics' `state` label).
    public static let state = "GESTURED_STATE"
    /// When the gesture was recognized: ISO 8601, UTC, to the millisecond.
    public static let time = "GESTURED_TIME"
    /// A control command's name (`reload`), as the socket and `gesturectl` spell it.
    public static let command = "GESTURED_COMMAND"
    /// The pid and uid of a control client (from the socket's credentials).
    public static let clientPID = "GESTURED_CLIENT_PID"
    public static let clientUID = "GESTURED_CLIENT_UID"

    /// True for a name journald accepts from a client: starts with a letter, then upper
    /// case letters, digits and underscores, at most 64 bytes.
    public static func isFieldName(_ key: String) -> Bool {
        let bytes = key.utf8
        guard let first = bytes.first, isUpper(first), bytes.count <= 64 else { return false }
        return bytes.allSatisfy { isUpper($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_") }
    }

    private static func isUpper(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
}

/// The bounds `limitReached` names, as tokens: the config key where the bound is one, else
/// the `reason` of `gestured_refused_total` that counts its refusals.
public enum JournalLimit: String, Sendable, CaseIterable {
    case maxChildren = "max_children"
    case socketQueue = "socket_queue"
    case connections
    case fileDescriptors = "file_descriptors"
}

extension Logger.Metadata {
    /// The journal fields of one event: its message id and what it concerns.
    public static func journal(
        _ id: MessageID, panel: JournalPanel? = nil, gesture: String? = nil, configFile: String? = nil, error: String? = nil,
        limit: JournalLimit? = nil, command: String? = nil, client: PeerCredentials? = nil
    ) -> Logger.Metadata {
        var metadata: Logger.Metadata = [JournalField.messageID: .string(id.rawValue)]
        if let panel {
            metadata[JournalField.device] = .string(panel.path)
            metadata[JournalField.deviceName] = .string(panel.name)
            metadata[JournalField.idPath] = .string(panel.idPath)
        }
        if let gesture { metadata[JournalField.gesture] = .string(gesture) }
        if let configFile { metadata[JournalField.configFile] = .string(configFile) }
        if let error { metadata[JournalField.error] = .string(error) }
        if let limit { metadata[JournalField.limit] = .string(limit.rawValue) }
        if let command { metadata[JournalField.command] = .string(command) }
        if let client {
            metadata[JournalField.clientPID] = .string("\(client.pid)")
            metadata[JournalField.clientUID] = .string("\(client.uid)")
        }
        return metadata
    }

    /// A panel's health change: its id by the new state, the panel, the state and why.
    public static func journal(health state: HealthState, reason: HealthReason, panel: JournalPanel) -> Logger.Metadata {
        var metadata = journal(MessageID(health: state), panel: panel)
        metadata[JournalField.health] = .string(state.description)
        metadata[JournalField.healthReason] = .string(reason.name)
        return metadata
    }
}
