// TouchInput: the evdev normalizer, libevdev devices, udev discovery and hotplug, evemu files.
import GestureCore
