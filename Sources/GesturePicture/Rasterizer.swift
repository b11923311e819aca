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
        let arguments = [tool, "--format", "png", "--output", output, input]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, tool, nil, nil, argv, environ)
        guard rc == 0 else { throw Failure(description: "\(tool): posix_spawn: \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure(description: "\(tool): waitpid: \(String(cString: strerror(errno)))") }
        }
        // WIFEXITED and WEXITSTATUS, which Swift does not import (macros).
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            throw Failure(
                description: "\(tool) could not write \(output) (" + (exited ? "exit status \(code)" : "killed by signal \(status & 0x7f)")
                    + ")")
        }
    }
}
