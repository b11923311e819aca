#if canImport(Glibc)
import Glibc
#endif

/// Calls `call` (a system call that returns a negative value and sets errno on failure)
/// again for as long as it fails with EINTR: a signal arriving mid-call is not a failure.
/// The one place gestured retries interrupted calls.
@inlinable
public func retryingInterrupted<Result: BinaryInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}
