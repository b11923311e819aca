import GestureCore
import Glibc
import LinuxSystem
import TestSupport
import Testing

@testable import TouchInput

/// What each open descriptor of this process refers to (`/proc/self/fd/N` link targets).
/// Other tests run in parallel and open descriptors of their own, so tests look for the
/// targets they created, never at counts.
private func openDescriptorTargets() throws -> [String] {
    try directoryEntries("/proc/self/fd").map { fd in
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/fd/" + fd, &buffer, buffer.count - 1)
        return n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }
}

/// The link target `/proc/self/fd` shows for an open descriptor.
private func descriptorTarget(_ fd: Int32) throws -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
    guard n > 0 else { throw SystemError("readlink", path: "/proc/self/fd/\(fd)", code: errno) }
    return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

@Suite(.serialized) struct DeviceTests {
    @Test func openingAMissingNodeNamesThePathAndErrno() throws {
        #expect {
            _ = try EvdevDevice(path: "/dev/input/event-missing")
        } throws: { error in
            let error = error as? SystemError
            return error?.code == ENOENT && error?.description == "/dev/input/event-missing: open failed: No such file or directory"
        }
    }

    @Test func aNodeThatIsNotEvdevIsRefusedAndClosed() throws {
        // A file of its own, so that no other test's descriptor can look like ours.
        var template = Array("/tmp/gestured-not-evdev-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        close(fd)
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            _ = try EvdevDevice(path: path)
            Issue.record("a regular file was accepted as an evdev device")
        } catch {
            #expect(error.operation == "libevdev_new_from_fd")
            #expect(error.code == ENOTTY)
            #expect(error.description.contains(path))
            #expect(error.description.contains("not an evdev device"))
        }
        #expect(try !openDescriptorTargets().contains(path))
        unlink(path)
    }

    @Test func permissionErrorsSayHowToFixThem() {
        errno = EACCES
        let error = SystemError.current("open", path: "/dev/input/event3")
        #expect(error.description.hasPrefix("/dev/input/event3: open failed: Permission denied"))
        #expect(error.description.contains("'input' group"))
        #expect(error.description.contains("udev rule"))
        errno = EACCES
        #expect(SystemError.current("open", path: "/tmp/x").hint == nil)
    }

    @Test func discoveryEnumeratesEventNodesOnly() throws {
        let discovery = try TouchscreenDiscovery()
        let devices = try discovery.inputDevices()
        for device in devices {
            #expect(device.devnode.hasPrefix("/dev/input/event"))
            #expect(device.syspath.hasPrefix("/sys/"))
        }
        #expect(try discovery.touchscreens().allSatisfy(\.isTouchscreen))
    }

    @Test func theHotplugMonitorHasANonBlockingCloseOnExecFd() throws {
        let socket: String
        do {
            let monitor = try TouchscreenDiscovery().monitor()
            socket = try descriptorTarget(monitor.fd)  // "socket:[inode]", unique while open
            #expect(monitor.fd >= 0)
            #expect(fcntl(monitor.fd, F_GETFD) & FD_CLOEXEC != 0)
            #expect(fcntl(monitor.fd, F_GETFL) & O_NONBLOCK != 0)
            #expect(monitor.receive() == nil)  // nothing was plugged in
        }
        #expect(try !openDescriptorTargets().contains(socket))
    }

    @Test func sysfsBitmasksAreReadWordByWord() {
        // capabilities/abs of a touchscreen: ABS_X, ABS_Y, ABS_MT_SLOT, MT positions, tracking id.
        #expect(SysfsBitmask.bits("260800000000003\n") == [0, 1, 47, 53, 54, 57])
        #expect(SysfsBitmask.bits("1 0") == [64])
        #expect(SysfsBitmask.bits("2") == [1])
        #expect(SysfsBitmask.bits("") == nil)
        #expect(SysfsBitmask.bits("zz") == nil)
    }

    @Test func touchscreenRecognition() {
        #expect(Fixture.protocolB().isTouchscreen)
        #expect(Fixture.singleTouch().isTouchscreen)
        // Protocol A without INPUT_PROP_DIRECT but with BTN_TOUCH (the N-Trig): udev's rule.
        #expect(Fixture.protocolA().isTouchscreen)
        var touchpad = Fixture.protocolB()
        touchpad.capabilities.properties = []
        touchpad.capabilities.enable(type: InputCodes.evKey, code: InputCodes.btnToolFinger)
        #expect(!touchpad.isTouchscreen)
        var tablet = Fixture.singleTouch()
        tablet.capabilities.properties = []
        tablet.capabilities.enable(type: InputCodes.evKey, code: InputCodes.btnToolPen)
        #expect(!tablet.isTouchscreen)
    }
}

/// Creating and dropping C-backed objects must not grow the heap: libmtdev's state (about
/// 38 KB) once leaked per protocol-A normalizer (38 MB over this loop), and udev contexts are created per command.
@Suite(.serialized) struct CResourceLeakTests {
    /// The data segment (heap) in bytes, from /proc/self/statm (glibc's mallinfo2 is not
    /// visible to Swift without a shim).
    private func heapInUse() -> Int {
        let statm = (try? WholeFile.read("/proc/self/statm", maximumSize: 4096)) ?? []
        let fields = String(decoding: statm, as: UTF8.self).split(separator: " ")
        return fields.count > 5 ? (Int(fields[5]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    @Test func protocolANormalizersFreeLibmtdev() {
        _ = TouchNormalizer(device: DeviceID(0), info: Fixture.protocolA())  // warm up caches
        let before = heapInUse()
        for _ in 0..<1000 {
            let normalizer = TouchNormalizer(device: DeviceID(0), info: Fixture.protocolA())
            #expect(normalizer != nil)
        }
        #expect(heapInUse() - before < 8 << 20, "heap grew by \(heapInUse() - before) bytes")
    }

    @Test func udevContextsAndMonitorsAreFreed() throws {
        _ = try TouchscreenDiscovery().monitor()
        let before = heapInUse()
        for _ in 0..<1000 {
            let discovery = try TouchscreenDiscovery()
            _ = try discovery.inputDevices()
            _ = try discovery.monitor()
        }
        #expect(heapInUse() - before < 8 << 20, "heap grew by \(heapInUse() - before) bytes")
    }
}
