import TouchInput

#if canImport(Glibc)
import Glibc
#endif

/// The real recordings of `../shared/recordings` (every `.evemu` file with its own device
/// header), one device each, played one after another with a second between them.
public enum RecordedStream {
    /// `$GESTURED_RECORDINGS`, else `../shared/recordings` beside the repository (derived from
    /// this file's location, as the tests' `SharedRecordings` does).
    public static var directory: String {
        if let value = getenv("GESTURED_RECORDINGS") { return String(cString: value) }
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Benchmarks/BenchScenarios/RecordedStream.swift
        return parts.joined(separator: "/") + "/../shared/recordings"
    }

    public struct MissingRecordings: Error, CustomStringConvertible {
        public let directory: String
        public let reason: String
        public var description: String {
            "no recordings in \(directory): \(reason); set GESTURED_RECORDINGS to the folder of the .evemu files"
        }
    }

    /// Reads every `.evemu` recording in `directory`, sorted by name.
    public static func make(directory: String = directory) throws -> (stream: InputStream, files: [String]) {
        guard let dir = opendir(directory) else {
            throw MissingRecordings(directory: directory, reason: String(cString: strerror(errno)))
        }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".evemu") { names.append(name) }
        }
        closedir(dir)
        guard !names.isEmpty else { throw MissingRecordings(directory: directory, reason: "no .evemu file") }
        names.sort()
        var recordings: [EvemuRecording] = []
        for name in names { recordings.append(try EvemuRecording.read(path: directory + "/" + name)) }
        var stream = InputStream(devices: recordings.map(\.info))
        var offset: Int64 = 0
        for (device, recording) in recordings.enumerated() {
            stream.append(recording.events, device: device, timeOffset: offset)
            offset = stream.endTime + 1_000_000
        }
        return (stream, names)
    }
}
