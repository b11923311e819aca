// What the loader builds: its users get the model with it.
@_exported import ConfigModel
