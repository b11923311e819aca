/// gestured's version, as the daemon's `status` and `--version` and `gesturectl --version`
/// report it: here, where both sides of the socket reach it.
public enum GesturedVersion {
    public static let current = "0.1.0"
}
