/**
 * The Objective-C runtime, for the few Cocoa calls the engine needs (NSWorkspace's running
 * applications). `objc_msgSend` has no prototype of its own: each call must use the exact
 * signature of the method it reaches, so every shape is its own typed entry aliasing the
 * same symbol. None returns a struct or a float, so the `_stret`/`_fpret` variants (x86_64)
 * are not needed. `BOOL` is `bool` on arm64 and `signed char` on x86_64: one byte either
 * way, read as `u8`.
 *
 * @module
 */

/** The runtime library. */
export const OBJC_PATH = "/usr/lib/libobjc.A.dylib";
/** AppKit, loaded only so NSWorkspace and NSRunningApplication are registered classes. */
export const APPKIT_PATH = "/System/Library/Frameworks/AppKit.framework/AppKit";

/** Objective-C runtime symbols. */
export const OBJC_SYMBOLS = {
  // Class objc_getClass(const char *name);
  objc_getClass: { parameters: ["buffer"], result: "pointer" },
  // SEL sel_registerName(const char *str);
  sel_registerName: { parameters: ["buffer"], result: "pointer" },
  // void *objc_autoreleasePoolPush(void);
  objc_autoreleasePoolPush: { parameters: [], result: "pointer" },
  // void objc_autoreleasePoolPop(void *pool);
  objc_autoreleasePoolPop: { parameters: ["pointer"], result: "void" },
  // id objc_msgSend(id self, SEL op);  e.g. +[NSWorkspace sharedWorkspace],
  // -runningApplications, -localizedName, -bundleIdentifier, -frontmostApplication
  msgSendId: { name: "objc_msgSend", parameters: ["pointer", "pointer"], result: "pointer" },
  // id objc_msgSend(id self, SEL op, NSUInteger index);  -[NSArray objectAtIndex:]
  msgSendIdAtIndex: {
    name: "objc_msgSend",
    parameters: ["pointer", "pointer", "usize"],
    result: "pointer",
  },
  // NSUInteger objc_msgSend(id self, SEL op);  -[NSArray count]
  msgSendUsize: { name: "objc_msgSend", parameters: ["pointer", "pointer"], result: "usize" },
  // pid_t objc_msgSend(id self, SEL op);  -[NSRunningApplication processIdentifier]
  msgSendI32: { name: "objc_msgSend", parameters: ["pointer", "pointer"], result: "i32" },
  // NSInteger objc_msgSend(id self, SEL op);  -[NSRunningApplication activationPolicy]
  msgSendIsize: { name: "objc_msgSend", parameters: ["pointer", "pointer"], result: "isize" },
  // BOOL objc_msgSend(id self, SEL op);  -isActive, -isHidden, -isTerminated
  msgSendBool: { name: "objc_msgSend", parameters: ["pointer", "pointer"], result: "u8" },
} as const satisfies Deno.ForeignLibraryInterface;

/** The loaded runtime symbols. */
export type ObjcRuntime = Deno.DynamicLibrary<typeof OBJC_SYMBOLS>["symbols"];

/** `NSApplicationActivationPolicyRegular`: apps with a Dock icon and windows. */
export const ACTIVATION_POLICY_REGULAR = 0n;
