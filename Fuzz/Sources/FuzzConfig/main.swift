// TOML text -> validation -> Configuration -> what `gesturectl check` prints and an engine
// built from the model: every input is either refused with diagnostics or runs.
import FuzzSupport
import GestureConfig
import GestureCore

runFuzzer { input in
    do throws(ConfigError) {
        let configuration = try ConfigLoader.parse(text: input.text, file: "fuzz.toml")
        _ = ConfigReport.text(of: configuration)
        _ = GestureEngine(model: configuration.model)
    } catch {
        FuzzCheck.require(!error.description.isEmpty, "a config error without a message")
    }
}
