import LinuxSystem

#if canImport(Glibc)
import Glibc
#endif

/// PNG output through `rsvg-convert` (librsvg, Debian's librsvg2-bin), found on PATH when
/// a PNG is asked for: the picture is SVG first, and librsvg renders SVG text faithfully
/// without gestured carrying an image library.
public enum Rasterizer {
    public static let program = "rsvg-convert"
    public static let package = "librsvg2-bin"

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The rasteriser's path on PATH, or nil.
    public static func find(path: String? = getenv("PATH").map { String(cString: $0) }) -> String? {
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":") where !directory.isEmpty {
            let candidate = directory + "/" + program
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Renders `svg` into the PNG file `output`, at the SVG's own size.
    public static func png(
        svg: String, to output: String,
        searchPath: String? = getenv("PATH").map { String(cString: $0) }
    ) throws(Failure) {
        guard let tool = find(path: searchPath) else {
            throw Failure(
                description: "\(output): PNG output needs \(program), which is not on PATH; "
                    + "install it (Debian: apt-get install \(package)) or write an .svg instead")
        }
        var template = Array("/tmp/gesturectl-render-XXXXXX.svg".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard fd >= 0 else { throw Failure(description: "mkstemps in /tmp: \(String(cString: strerror(errno)))") }
        close(fd)
        let input = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(input) }
        do {
            try WholeFile.write(svg, to: input)
        } catch {
            throw Failure(description: error.description)
        }
        let exit: ProcessSpawner.Exit
        do {
            exit = try ProcessSpawner.wait(ProcessSpawner.spawn(tool, arguments: ["--format", "png", "--output", output, input]).pid)
        } catch {
            throw Failure(description: "\(tool): \(error)")
        }
        guard exit == .exited(0) else { throw Failure(description: "\(tool) could not write \(output) (\(exit))") }
    }
}
