#pragma once
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <sys/ioctl.h>

/* UI_SET_PHYS on a uinput fd before the device is created (ioctl is variadic, which Swift
   cannot call; libevdev's uinput setup does not pass phys on). */
static inline int cevdev_uinput_set_phys(int fd, const char *phys) {
    return ioctl(fd, UI_SET_PHYS, phys);
}
