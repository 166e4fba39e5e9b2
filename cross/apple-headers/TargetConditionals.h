/* A stand-in for the Apple SDK's TargetConditionals.h, for type-checking Hoard for macOS on a
 * machine without the SDK (cross/check.sh). C build scripts (ring) only ask it which Apple
 * system they build for. Nothing compiled with it is ever linked or run. */
#ifndef HOARD_TARGET_CONDITIONALS_H
#define HOARD_TARGET_CONDITIONALS_H
#define TARGET_OS_MAC 1
#define TARGET_OS_OSX 1
#define TARGET_OS_IPHONE 0
#define TARGET_OS_IOS 0
#define TARGET_OS_TV 0
#define TARGET_OS_WATCH 0
#define TARGET_OS_SIMULATOR 0
#define TARGET_CPU_ARM64 1
#endif
