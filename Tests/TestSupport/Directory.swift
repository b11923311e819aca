import Glibc
import LinuxSystem

/// The names in a directory (tests only).
public func directoryEntries(_ path: String) throws -> [String] {
    guard let dir = opendir(path) else { throw SystemError("opendir", path: path, code: errno) }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

/// The files under `path` whose names end in `suffix`, at any depth, as paths relative to
/// `path`, sorted.
public func files(under path: String, endingIn suffix: String) throws -> [String] {
    var found: [String] = []
    for name in try directoryEntries(path) {
        var status = stat()
        guard stat(path + "/" + name, &status) == 0 else { throw SystemError("stat", path: path + "/" + name, code: errno) }
        if status.st_mode & S_IFMT == S_IFDIR {
            found += try files(under: path + "/" + name, endingIn: suffix).map { name + "/" + $0 }
        } else if name.hasSuffix(suffix) {
            found.append(name)
        }
    }
    return found.sorted()
}

/// The package's root directory (where Package.swift is), derived from this file's location.
public let packageRoot: String = {
    var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/TestSupport/Directory.swift
    return parts.joined(separator: "/")
}()
