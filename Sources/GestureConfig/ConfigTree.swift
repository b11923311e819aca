#if canImport(Glibc)
import Glibc
#endif

/// The files of one config, in the order they are read: the main file, then the drop-ins
/// (`*.toml`) of its drop-in directories, sorted by file name across them, as systemd and
/// the UAPI group's configuration files specification do. Of drop-ins with one name, the
/// one in the latest directory is read (`/etc` before `/run` before `/usr/lib`); an empty
/// one, or a symlink to /dev/null, masks the name: none of them is read.
public struct ConfigTree: Equatable, Sendable {
    public var mainFile: String
    /// Lowest precedence first.
    public var dropInDirectories: [String]

    /// The packages', the runtime's and the administrator's drop-ins, read with the default
    /// main file.
    public static let standardDropInDirectories = [
        "/usr/lib/gestured/gestures.d", "/run/gestured/gestures.d", "/etc/gestured/gestures.d",
    ]

    /// The most `*.toml` files in one drop-in directory: a site has a handful; thousands
    /// are a mistake, and each costs a parse (the tree's size is bounded by the loader).
    public static let maximumFilesPerDirectory = 128

    /// `dropInDirectories` nil: `dropInDirectories(for: mainFile)`.
    public init(mainFile: String, dropInDirectories: [String]? = nil) {
        self.mainFile = mainFile
        self.dropInDirectories = dropInDirectories ?? Self.dropInDirectories(for: mainFile)
    }

    /// The standard three for the default main file; for any other, the one directory
    /// beside it named after it (`config/gestures.toml`: `config/gestures.d`), so that a
    /// config tried elsewhere never picks up the system's drop-ins, and two configs in
    /// one directory have drop-ins of their own.
    public static func dropInDirectories(for mainFile: String) -> [String] {
        if mainFile == ConfigLoader.defaultPath { return standardDropInDirectories }
        let stem = mainFile.hasSuffix(".toml") ? String(mainFile.dropLast(5)) : mainFile
        return [stem + ".d"]
    }

    /// A drop-in that is not read, and which file made it so.
    public struct Skipped: Equatable, Sendable {
        public var path: String
        /// The drop-in of the same name in a later directory: the file read instead, or the mask.
        public var by: String
        /// `by` is a mask (empty, or a symlink to /dev/null): no file of this name is read.
        public var masked: Bool
    }

    /// The files to read and the drop-ins passed over.
    public struct Listing: Equatable, Sendable {
        /// In order: the main file, then the drop-ins.
        public var files: [String]
        /// Masked or replaced drop-ins, in name order.
        public var skipped: [Skipped]
    }

    /// A file read in place of a drop-in (`gesturectl check --as-dropin`): `path` as if it
    /// were the drop-in called `name` in the last directory.
    public struct Candidate: Equatable, Sendable {
        public var path: String
        public var name: String
        public init(path: String, name: String) {
            self.path = path
            self.name = name
        }
    }

    /// Where `candidate` stands: the drop-in of its name in the last directory. Diagnostics
    /// and the listing name it so: a configuration manager's temporary file is not where
    /// the operator will look.
    public func place(of candidate: Candidate) -> String {
        (dropInDirectories.last ?? ".") + "/" + candidate.name
    }

    /// Lists the directories (a missing one is empty) and orders their drop-ins.
    public func list(candidate: Candidate? = nil) throws(ConfigError) -> Listing {
        // name -> every file of that name, lowest precedence first.
        var byName: [String: [String]] = [:]
        for directory in dropInDirectories {
            for name in try Self.dropInNames(in: directory) {
                byName[name, default: []].append(directory + "/" + name)
            }
        }
        if let candidate {
            byName[candidate.name, default: []].removeAll { $0 == place(of: candidate) }
            byName[candidate.name, default: []].append(candidate.path)
        }
        var listing = Listing(files: [mainFile], skipped: [])
        // Byte order, as systemd sorts (strcmp), not Swift's Unicode order.
        for name in byName.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let paths = byName[name] ?? []
            guard let chosen = paths.last else { continue }
            let masked = Self.isMask(chosen)
            for path in paths.dropLast() {
                listing.skipped.append(Skipped(path: path, by: chosen, masked: masked))
            }
            if !masked { listing.files.append(chosen) }
        }
        return listing
    }

    /// The `*.toml` names in `directory` (hidden ones skipped: editors' lock and backup
    /// files); none when it does not exist.
    private static func dropInNames(in directory: String) throws(ConfigError) -> [String] {
        guard let stream = opendir(directory) else {
            if errno == ENOENT || errno == ENOTDIR { return [] }
            throw .dropIns(path: directory, reason: "cannot read the drop-in directory: \(String(cString: strerror(errno)))")
        }
        defer { closedir(stream) }
        var names: [String] = []
        errno = 0
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(cString: bytes.bindMemory(to: CChar.self).baseAddress!)
            }
            guard name.hasSuffix(".toml"), !name.hasPrefix(".") else { continue }
            names.append(name)
            if names.count > maximumFilesPerDirectory {
                throw .dropIns(
                    path: directory, reason: "more than \(maximumFilesPerDirectory) .toml files in the drop-in directory (the limit)")
            }
        }
        if errno != 0 {
            throw .dropIns(path: directory, reason: "cannot read the drop-in directory: \(String(cString: strerror(errno)))")
        }
        return names
    }

    /// An empty file, or a link to /dev/null (through any chain of links).
    static func isMask(_ path: String) -> Bool {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            if String(cString: resolved) == "/dev/null" { return true }
        }
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_size == 0
    }
}
