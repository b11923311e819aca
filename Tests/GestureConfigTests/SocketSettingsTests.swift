import Testing

@testable import GestureConfig

/// Issue #18 item 13: `check` catches what the daemon's start would refuse, and says
/// when anyone could use the socket. Modes are shown in octal.
@Suite struct SocketSettingsTests {
    func check(_ daemon: String) -> (status: Int32, errors: [String]) {
        let file = TemporaryFile(contents: "[daemon]\n\(daemon)\n" + Fixture.screen)
        var errors: [String] = []
        let status = ConfigCheck.run(
            tree: ConfigTree(mainFile: file.path), enforceSafety: false, output: { _ in }, errors: { errors.append($0) })
        return (status, errors.map { $0.replacing(file.path, with: "test.toml") })
    }

    @Test func aWorldAccessibleModeIsTakenWithAWarning() {
        for mode in ["\"0666\"", "0o606", "\"0664\""] {
            let result = check("socket_mode = \(mode)")
            #expect(result.status == 0)
            #expect(
                result.errors.count == 1
                    && result.errors.first?.hasPrefix(
                        "test.toml:2:1: warning: daemon.socket_mode: anyone on this machine may connect: reload the config, replay, "
                            + "subscribe to every event: expected 0o660, with socket_group for the users that need the socket, found 0o6")
                        == true,
                "\(result.errors)")
        }
        #expect(check("socket_mode = \"0660\"") == (0, []))
    }

    @Test func aModeWithoutOwnerReadAndWriteIsRefused() {
        #expect(
            check("socket_mode = \"0000\"") == (
                1,
                [
                    "test.toml:2:1: error: daemon.socket_mode: the daemon could not read and write its own socket: expected a mode with owner read and write, such as 0o660, found 0o000"
                ]
            ))
        #expect(check("socket_mode = 0o460").errors.first?.hasSuffix("found 0o460") == true)
    }

    @Test func aModeBeyondPermissionBitsIsShownInOctal() {
        #expect(
            check("socket_mode = 0o4777") == (
                1,
                [
                    "test.toml:2:1: error: daemon.socket_mode: not a permission mode: expected a mode such as 0o660 or \"0660\", found 0o4777"
                ]
            ))
    }

    @Test func aGroupIsResolvedAsTheDaemonWillResolveIt() {
        #expect(check("socket_group = \"root\"") == (0, []))
        #expect(
            check("socket_group = \"no-such-group-gestured\"") == (
                1,
                [
                    "test.toml:2:1: error: daemon.socket_group: no such group on this machine: expected an existing group (getent group lists them), found \"no-such-group-gestured\""
                ]
            ))
    }
}
