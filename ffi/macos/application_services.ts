/**
 * The Accessibility API (HIServices' AXUIElement, AXValue and AXObserver, re-exported by
 * the ApplicationServices umbrella framework). `AXError` is `int32_t`, `pid_t` is `int`,
 * `AXValueType` and `AXCopyMultipleAttributeOptions` are `UInt32`, `Boolean` is `u8`.
 *
 * Calls that message the target app (every copy, set, count and action) are
 * `nonblocking`: they run on Deno's blocking pool and return a promise, so an app that
 * takes its whole messaging timeout to answer stalls neither the driver's main thread nor
 * reads of other apps. Local calls (create, get pid, timeouts, AXValue decoding) are
 * synchronous.
 *
 * @module
 */

/** The umbrella framework; its binary re-exports HIServices' AX symbols. */
export const AX_PATH =
  "/System/Library/Frameworks/ApplicationServices.framework/ApplicationServices";

/** `void (*AXObserverCallback)(AXObserverRef observer, AXUIElementRef element,
 *                              CFStringRef notification, void *refcon)`. */
export const AX_OBSERVER_CALLBACK = {
  parameters: ["pointer", "pointer", "pointer", "pointer"],
  result: "void",
} as const satisfies Deno.UnsafeCallbackDefinition;

/** ApplicationServices (AX) symbols. */
export const AX_SYMBOLS = {
  // Boolean AXIsProcessTrusted(void);
  AXIsProcessTrusted: { parameters: [], result: "u8" },
  // Boolean AXIsProcessTrustedWithOptions(CFDictionaryRef options);
  AXIsProcessTrustedWithOptions: { parameters: ["pointer"], result: "u8" },
  // CFTypeID AXUIElementGetTypeID(void);
  AXUIElementGetTypeID: { parameters: [], result: "usize" },
  // AXUIElementRef AXUIElementCreateApplication(pid_t pid);
  AXUIElementCreateApplication: { parameters: ["i32"], result: "pointer" },
  // AXUIElementRef AXUIElementCreateSystemWide(void);
  AXUIElementCreateSystemWide: { parameters: [], result: "pointer" },
  // AXError AXUIElementGetPid(AXUIElementRef element, pid_t *pid);
  AXUIElementGetPid: { parameters: ["pointer", "buffer"], result: "i32" },
  // AXError AXUIElementSetMessagingTimeout(AXUIElementRef element, float timeoutInSeconds);
  AXUIElementSetMessagingTimeout: { parameters: ["pointer", "f32"], result: "i32" },
  // AXError AXUIElementCopyAttributeValue(AXUIElementRef element, CFStringRef attribute,
  //                                       CFTypeRef *value);
  AXUIElementCopyAttributeValue: {
    parameters: ["pointer", "pointer", "buffer"],
    result: "i32",
    nonblocking: true,
  },
  // AXError AXUIElementCopyAttributeValues(AXUIElementRef element, CFStringRef attribute,
  //                                        CFIndex index, CFIndex maxValues,
  //                                        CFArrayRef *values);
  AXUIElementCopyAttributeValues: {
    parameters: ["pointer", "pointer", "isize", "isize", "buffer"],
    result: "i32",
    nonblocking: true,
  },
  // AXError AXUIElementCopyMultipleAttributeValues(AXUIElementRef element,
  //                                                CFArrayRef attributes,
  //                                                AXCopyMultipleAttributeOptions options,
  //                                                CFArrayRef *values);
  AXUIElementCopyMultipleAttributeValues: {
    parameters: ["pointer", "pointer", "u32", "buffer"],
    result: "i32",
    nonblocking: true,
  },
  // AXError AXUIElementGetAttributeValueCount(AXUIElementRef element, CFStringRef attribute,
  //                                           CFIndex *count);
  AXUIElementGetAttributeValueCount: {
    parameters: ["pointer", "pointer", "buffer"],
    result: "i32",
    nonblocking: true,
  },
  // AXError AXUIElementIsAttributeSettable(AXUIElementRef element, CFStringRef attribute,
  //                                        Boolean *settable);
  AXUIElementIsAttributeSettable: {
    parameters: ["pointer", "pointer", "buffer"],
    result: "i32",
    nonblocking: true,
  },
  // AXError AXUIElementSetAttributeValue(AXUIElementRef element, CFStringRef attribute,
  //                                      CFTypeRef value);
  AXUIElementSetAttributeValue: {
    parameters: ["pointer", "pointer", "pointer"],
    result: "i32",
    nonblocking: true,
  },
  // AXError AXUIElementCopyActionNames(AXUIElementRef element, CFArrayRef *names);
  AXUIElementCopyActionNames: {
    parameters: ["pointer", "buffer"],
    result: "i32",
    nonblocking: true,
  },
  // AXError AXUIElementPerformAction(AXUIElementRef element, CFStringRef action);
  AXUIElementPerformAction: {
    parameters: ["pointer", "pointer"],
    result: "i32",
    nonblocking: true,
  },
  // CFTypeID AXValueGetTypeID(void);
  AXValueGetTypeID: { parameters: [], result: "usize" },
  // AXValueType AXValueGetType(AXValueRef value);
  AXValueGetType: { parameters: ["pointer"], result: "u32" },
  // Boolean AXValueGetValue(AXValueRef value, AXValueType theType, void *valuePtr);
  AXValueGetValue: { parameters: ["pointer", "u32", "buffer"], result: "u8" },
  // AXValueRef AXValueCreate(AXValueType theType, const void *valuePtr);
  AXValueCreate: { parameters: ["u32", "buffer"], result: "pointer" },
  // AXError AXObserverCreate(pid_t application, AXObserverCallback callback,
  //                          AXObserverRef *outObserver);
  AXObserverCreate: { parameters: ["i32", "function", "buffer"], result: "i32" },
  // AXError AXObserverAddNotification(AXObserverRef observer, AXUIElementRef element,
  //                                   CFStringRef notification, void *refcon);
  AXObserverAddNotification: {
    parameters: ["pointer", "pointer", "pointer", "pointer"],
    result: "i32",
  },
  // AXError AXObserverRemoveNotification(AXObserverRef observer, AXUIElementRef element,
  //                                      CFStringRef notification);
  AXObserverRemoveNotification: {
    parameters: ["pointer", "pointer", "pointer"],
    result: "i32",
  },
  // CFRunLoopSourceRef AXObserverGetRunLoopSource(AXObserverRef observer);
  AXObserverGetRunLoopSource: { parameters: ["pointer"], result: "pointer" },
  // AXError _AXUIElementGetWindow(AXUIElementRef element, CGWindowID *outWindow);
  // Private but long-lived (used by window managers since 10.x): maps an AXWindow to the
  // CGWindowID that window captures take. Absent -> captures use the window's rectangle.
  _AXUIElementGetWindow: {
    parameters: ["pointer", "buffer"],
    result: "i32",
    optional: true,
  },
} as const satisfies Deno.ForeignLibraryInterface;

/** The loaded ApplicationServices symbols. */
export type ApplicationServices = Deno.DynamicLibrary<typeof AX_SYMBOLS>["symbols"];

/** `kAXCopyMultipleAttributeOptionStopOnError`: not used, so one bad attribute can't hide
 * the others (each failed attribute comes back as an AXError value in its slot). */
export const AX_COPY_MULTIPLE_STOP_ON_ERROR = 0x1;
