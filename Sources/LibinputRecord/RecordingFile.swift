import LinuxSystem
import TouchInput

/// A recording file of either kind gesturectl reads: evemu (`evemu-record`, or events
/// only with a separate description) or libinput record YAML, told apart by the name
/// (`.yml`, `.yaml`) or else by the first key.
public enum RecordingFile {
    public static func read(path: String, descPath: String? = nil) throws -> EvemuRecording {
        let bytes = try WholeFile.read(path, maximumSize: EvemuRecording.maximumSize)
        let yaml = path.hasSuffix(".yml") || path.hasSuffix(".yaml") || LibinputRecord.looksLike(bytes)
        guard yaml else {
            let desc = try descPath.map { descPath in
                (String(decoding: try WholeFile.read(descPath, maximumSize: EvemuRecording.maximumSize), as: UTF8.self), descPath)
            }
            return try EvemuRecording.parse(String(decoding: bytes, as: UTF8.self), path: path, desc: desc)
        }
        if let descPath {
            throw EvemuError(
                path: descPath, line: 0,
                problem: "--desc is for evemu event files; \(path) is a libinput record, which describes its device itself")
        }
        return try LibinputRecord.parse(String(decoding: bytes, as: UTF8.self), path: path)
    }
}
