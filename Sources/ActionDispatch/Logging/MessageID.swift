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
    // The touch-health stage's verdicts: declared now so alert rules can be written once.
    case panelNoisy = "2ab00f82238e4a9d8c0fa8e68a8e87b8"
    case panelSilent = "7552c6951d0e484f9bb830c3083104bd"
    case panelOK = "392f66379cc4404ca15faadbf8b82dcc"
    case actionFailed = "ea2faf1c1ec0468fb0392b429c363116"
    case actionTimedOut = "2aba43aa2adc4e838ca929e859efe96b"
    case limitReached = "afb6fa67544e48fd8f70cbb2d2e92376"
    case commandRefused = "aa6d588afe734b28ad87d0e0ed6b5843"
    case changesUndone = "d9d845e370334fad9f8271ad1845094e"
}

/// Journal field names gestured sets besides journald's own: carried as swift-log
/// metadata under these keys. Keys spelled like journal fields (upper case, digits,
/// underscores) go only to the journal; on stderr's text they are left out.
public enum JournalField {
    public static let messageID = "MESSAGE_ID"
    /// The panel's device node (`/dev/input/event3`).
    public static let device = "GESTURED_DEVICE"
    /// The gesture's name from the config.
    public static let gesture = "GESTURED_GESTURE"
    /// The config file (the main one; a drop-in's name is in the message).
    public static let configFile = "GESTURED_CONFIG_FILE"
    /// Which bound was reached: its config key or LIMITS.md name (`max_children`).
    public static let limit = "GESTURED_LIMIT"

    /// True for a name journald accepts from a client: starts with a letter, then upper
    /// case letters, digits and underscores, at most 64 bytes.
    public static func isFieldName(_ key: String) -> Bool {
        let bytes = key.utf8
        guard let first = bytes.first, isUpper(first), bytes.count <= 64 else { return false }
        return bytes.allSatisfy { isUpper($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_") }
    }

    private static func isUpper(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
}

extension Logger.Metadata {
    /// The journal fields of one event: its message id and what it concerns.
    public static func journal(
        _ id: MessageID, device: String? = nil, gesture: String? = nil, configFile: String? = nil, limit: String? = nil
    ) -> Logger.Metadata {
        var metadata: Logger.Metadata = [JournalField.messageID: .string(id.rawValue)]
        if let device { metadata[JournalField.device] = .string(device) }
        if let gesture { metadata[JournalField.gesture] = .string(gesture) }
        if let configFile { metadata[JournalField.configFile] = .string(configFile) }
        if let limit { metadata[JournalField.limit] = .string(limit) }
        return metadata
    }
}
