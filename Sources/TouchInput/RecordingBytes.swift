extension EvemuRecording {
    /// A recording file's bytes, for readers of other recording formats (libinput record)
    /// that hand back an `EvemuRecording`.
    public static func bytes(of path: String) throws(SystemError) -> [UInt8] {
        try TextFile.readBytes(path)
    }
}
