// gestured: argument parsing and start-up only; the daemon lives in GestureDaemon.
print("gestured: waiting for a touchscreen")
