import GestureConfig
import GestureCore

/// What `gestured`'s command line decides; everything else comes from the config file.
public struct DaemonOptions: Sendable {
    /// A recording played instead of live touchscreens (`--replay`).
    public struct Replay: Sendable {
        public var path: String
        public var descPath: String?
        /// Playback rate: 2 plays twice as fast as recorded.
        public var speed: Double

        public init(path: String, descPath: String? = nil, speed: Double = 1) {
            self.path = path
            self.descPath = descPath
            self.speed = speed
        }
    }

    /// A device's raw events read from a pipe or file (`--stream`).
    public struct Stream: Sendable {
        /// "-": standard input.
        public var path: String
        /// The device's description (evemu-describe).
        public var descPath: String

        public init(path: String, descPath: String) {
            self.path = path
            self.descPath = descPath
        }
    }

    public var configPath: String
    /// `--config-dir`; nil: the config file's own drop-in directories (`ConfigTree`).
    public var configDirectories: [String]?
    /// `--socket`; nil: `$GESTURED_SOCKET`, `[daemon] socket`, then the defaults.
    public var socketPath: String?
    public var replay: Replay?
    public var stream: Stream?

    public init(
        configPath: String, configDirectories: [String]? = nil, socketPath: String? = nil, replay: Replay? = nil,
        stream: Stream? = nil
    ) {
        self.configPath = configPath
        self.configDirectories = configDirectories
        self.socketPath = socketPath
        self.replay = replay
        self.stream = stream
    }
}

extension DaemonOptions {
    /// The main file and its drop-ins, listed again at each load.
    public var configTree: ConfigTree { ConfigTree(mainFile: configPath, dropInDirectories: configDirectories) }
}
