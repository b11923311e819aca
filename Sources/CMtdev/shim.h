#pragma once
#include <mtdev.h>
#include <mtdev-plumbing.h>
