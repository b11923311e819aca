// GestureConfig: the TOML schema, validation with file:line:col errors, units, model building.
import GestureCore
