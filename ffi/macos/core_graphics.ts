/**
 * CoreGraphics: synthetic input (CGEvent), the window list and screen capture. C types:
 * `CGEventType`, `CGMouseButton`, `CGEventTapLocation`, `CGEventField`,
 * `CGScrollEventUnit`, `CGWindowListOption`, `CGWindowImageOption`, `CGWindowID`,
 * `CGDirectDisplayID` and `CGBitmapInfo` are `uint32_t`; `CGKeyCode` is `uint16_t`;
 * `CGEventFlags` is `uint64_t`; `UniCharCount` and `size_t` are `unsigned long`.
 * `CGPoint` and `CGRect` travel by value (`CGFloat` = `double`; see `marshal.ts`). The
 * `kCGWindow*` key statics come from Deno as the variables' addresses: read them with
 * `readStatic` (`cf.ts`).
 *
 * @module
 */

/** The framework binary. */
export const CG_PATH = "/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics";

/** `CGPoint {CGFloat x, y;}` by value. */
export const CG_POINT = { struct: ["f64", "f64"] } as const;
/** `CGRect {CGPoint origin; CGSize size;}` by value (flattened: same layout). */
export const CG_RECT = { struct: ["f64", "f64", "f64", "f64"] } as const;

/** CoreGraphics symbols. */
export const CG_SYMBOLS = {
  // CGDirectDisplayID CGMainDisplayID(void);
  CGMainDisplayID: { parameters: [], result: "u32" },
  // CGRect CGDisplayBounds(CGDirectDisplayID display);
  CGDisplayBounds: { parameters: ["u32"], result: CG_RECT },
  // CGEventRef CGEventCreate(CGEventSourceRef source);
  CGEventCreate: { parameters: ["pointer"], result: "pointer" },
  // CGPoint CGEventGetLocation(CGEventRef event);
  CGEventGetLocation: { parameters: ["pointer"], result: CG_POINT },
  // CGEventRef CGEventCreateMouseEvent(CGEventSourceRef source, CGEventType mouseType,
  //                                    CGPoint mouseCursorPosition,
  //                                    CGMouseButton mouseButton);
  CGEventCreateMouseEvent: {
    parameters: ["pointer", "u32", CG_POINT, "u32"],
    result: "pointer",
  },
  // CGEventRef CGEventCreateKeyboardEvent(CGEventSourceRef source, CGKeyCode virtualKey,
  //                                       bool keyDown);
  CGEventCreateKeyboardEvent: { parameters: ["pointer", "u16", "bool"], result: "pointer" },
  // CGEventRef CGEventCreateScrollWheelEvent2(CGEventSourceRef source,
  //                                           CGScrollEventUnit units, uint32_t wheelCount,
  //                                           int32_t wheel1, int32_t wheel2, int32_t wheel3);
  // (macOS 10.13+; the older CGEventCreateScrollWheelEvent is variadic, which FFI can't
  // call portably: variadic arguments go on the stack on arm64.)
  CGEventCreateScrollWheelEvent2: {
    parameters: ["pointer", "u32", "u32", "i32", "i32", "i32"],
    result: "pointer",
    optional: true,
  },
  // void CGEventKeyboardSetUnicodeString(CGEventRef event, UniCharCount stringLength,
  //                                      const UniChar *unicodeString);
  CGEventKeyboardSetUnicodeString: {
    parameters: ["pointer", "usize", "buffer"],
    result: "void",
  },
  // void CGEventSetFlags(CGEventRef event, CGEventFlags flags);
  CGEventSetFlags: { parameters: ["pointer", "u64"], result: "void" },
  // void CGEventSetIntegerValueField(CGEventRef event, CGEventField field, int64_t value);
  CGEventSetIntegerValueField: { parameters: ["pointer", "u32", "i64"], result: "void" },
  // void CGEventPost(CGEventTapLocation tap, CGEventRef event);
  CGEventPost: { parameters: ["u32", "pointer"], result: "void" },
  // CFArrayRef CGWindowListCopyWindowInfo(CGWindowListOption option,
  //                                       CGWindowID relativeToWindow);
  CGWindowListCopyWindowInfo: { parameters: ["u32", "u32"], result: "pointer" },
  // bool CGRectMakeWithDictionaryRepresentation(CFDictionaryRef dict, CGRect *rect);
  CGRectMakeWithDictionaryRepresentation: { parameters: ["pointer", "buffer"], result: "bool" },
  // CGImageRef CGWindowListCreateImage(CGRect screenBounds, CGWindowListOption listOption,
  //                                    CGWindowID windowID, CGWindowImageOption imageOption);
  // Deprecated in macOS 14 in favour of ScreenCaptureKit; still exported, hence optional.
  CGWindowListCreateImage: {
    parameters: [CG_RECT, "u32", "u32", "u32"],
    result: "pointer",
    optional: true,
  },
  // CGImageRef CGDisplayCreateImageForRect(CGDirectDisplayID display, CGRect rect);
  CGDisplayCreateImageForRect: {
    parameters: ["u32", CG_RECT],
    result: "pointer",
    optional: true,
  },
  // bool CGPreflightScreenCaptureAccess(void);  (macOS 10.15+)
  CGPreflightScreenCaptureAccess: { parameters: [], result: "bool", optional: true },
  // size_t CGImageGetWidth(CGImageRef image);
  CGImageGetWidth: { parameters: ["pointer"], result: "usize" },
  // size_t CGImageGetHeight(CGImageRef image);
  CGImageGetHeight: { parameters: ["pointer"], result: "usize" },
  // void CGImageRelease(CGImageRef image);
  CGImageRelease: { parameters: ["pointer"], result: "void" },
  // CGColorSpaceRef CGColorSpaceCreateDeviceRGB(void);
  CGColorSpaceCreateDeviceRGB: { parameters: [], result: "pointer" },
  // void CGColorSpaceRelease(CGColorSpaceRef space);
  CGColorSpaceRelease: { parameters: ["pointer"], result: "void" },
  // CGContextRef CGBitmapContextCreate(void *data, size_t width, size_t height,
  //                                    size_t bitsPerComponent, size_t bytesPerRow,
  //                                    CGColorSpaceRef space, uint32_t bitmapInfo);
  CGBitmapContextCreate: {
    parameters: ["buffer", "usize", "usize", "usize", "usize", "pointer", "u32"],
    result: "pointer",
  },
  // void CGContextDrawImage(CGContextRef c, CGRect rect, CGImageRef image);
  CGContextDrawImage: { parameters: ["pointer", CG_RECT, "pointer"], result: "void" },
  // void CGContextRelease(CGContextRef c);
  CGContextRelease: { parameters: ["pointer"], result: "void" },
  // const CFStringRef kCGWindowOwnerPID;  (CFNumber, pid_t)
  kCGWindowOwnerPID: { type: "pointer" },
  // const CFStringRef kCGWindowOwnerName;  (CFString)
  kCGWindowOwnerName: { type: "pointer" },
  // const CFStringRef kCGWindowName;  (CFString; only with screen-recording permission)
  kCGWindowName: { type: "pointer" },
  // const CFStringRef kCGWindowNumber;  (CFNumber, CGWindowID)
  kCGWindowNumber: { type: "pointer" },
  // const CFStringRef kCGWindowLayer;  (CFNumber; 0 = normal app windows)
  kCGWindowLayer: { type: "pointer" },
  // const CFStringRef kCGWindowBounds;  (CFDictionary for CGRectMakeWithDictionaryRep.)
  kCGWindowBounds: { type: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

/** The loaded CoreGraphics symbols. */
export type CoreGraphics = Deno.DynamicLibrary<typeof CG_SYMBOLS>["symbols"];

/** Constants of CGEventTypes.h, CGWindow.h and CGImage.h used by the engine. */
export const CG = {
  // CGEventType
  leftMouseDown: 1,
  leftMouseUp: 2,
  rightMouseDown: 3,
  rightMouseUp: 4,
  mouseMoved: 5,
  leftMouseDragged: 6,
  otherMouseDown: 25,
  otherMouseUp: 26,
  // CGMouseButton
  buttonLeft: 0,
  buttonRight: 1,
  buttonCenter: 2,
  // CGEventField
  mouseEventClickState: 1,
  // CGEventTapLocation
  hidEventTap: 0,
  // CGScrollEventUnit
  scrollUnitPixel: 0,
  scrollUnitLine: 1,
  // CGWindowListOption
  optionOnScreenOnly: 1 << 0,
  optionIncludingWindow: 1 << 3,
  excludeDesktopElements: 1 << 4,
  nullWindowId: 0,
  // CGWindowImageOption
  imageDefault: 0,
  imageBoundsIgnoreFraming: 1 << 0,
  imageBestResolution: 1 << 3,
  // CGBitmapInfo: kCGImageAlphaPremultipliedLast | kCGBitmapByteOrder32Big = RGBA bytes
  rgbaPremultiplied: 1 | (4 << 12),
} as const;

/** `CGEventFlags` masks for modifier keys. */
export const CG_FLAGS = {
  shift: 0x0002_0000n,
  control: 0x0004_0000n,
  alternate: 0x0008_0000n,
  command: 0x0010_0000n,
} as const;
