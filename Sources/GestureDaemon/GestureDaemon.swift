// GestureDaemon: the event loop, dispatcher, control and event socket, status.
import GestureCore
