/**
 * CoreFoundation's symbol table: object lifetime, the value types accessibility answers in
 * (CFString, CFNumber, CFBoolean, CFArray, CFDictionary, CFURL) and the run loop the
 * AXHub pumps. C types on 64-bit macOS: `CFIndex` = `long` (`isize`), `CFTypeID` and
 * `CFHashCode` = `unsigned long` (`usize`), `Boolean` = `unsigned char` (`u8`),
 * `CFStringEncoding` = `UInt32`, `CFTimeInterval` = `double`.
 *
 * Pointer statics (`kCFBooleanTrue`, `kCFRunLoopDefaultMode`) come from Deno as the
 * variable's address: read them with `readStatic` (`cf.ts`).
 *
 * Ownership follows Apple's rule: what a `Create` or `Copy` function returns is ours to
 * `CFRelease`; what a `Get` function returns is borrowed.
 *
 * @module
 */

/** The framework binary (served from the dyld shared cache on macOS 11 and later). */
export const CF_PATH = "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation";

/** `CFRange {CFIndex location; CFIndex length;}` passed by value. */
export const CF_RANGE = { struct: ["isize", "isize"] } as const;

/** CoreFoundation symbols. */
export const CF_SYMBOLS = {
  // void CFRelease(CFTypeRef cf);
  CFRelease: { parameters: ["pointer"], result: "void" },
  // CFTypeRef CFRetain(CFTypeRef cf);
  CFRetain: { parameters: ["pointer"], result: "pointer" },
  // CFTypeID CFGetTypeID(CFTypeRef cf);
  CFGetTypeID: { parameters: ["pointer"], result: "usize" },
  // CFHashCode CFHash(CFTypeRef cf);
  CFHash: { parameters: ["pointer"], result: "usize" },
  // Boolean CFEqual(CFTypeRef cf1, CFTypeRef cf2);
  CFEqual: { parameters: ["pointer", "pointer"], result: "u8" },
  // CFTypeID CFStringGetTypeID(void);
  CFStringGetTypeID: { parameters: [], result: "usize" },
  // CFTypeID CFNumberGetTypeID(void);
  CFNumberGetTypeID: { parameters: [], result: "usize" },
  // CFTypeID CFBooleanGetTypeID(void);
  CFBooleanGetTypeID: { parameters: [], result: "usize" },
  // CFTypeID CFArrayGetTypeID(void);
  CFArrayGetTypeID: { parameters: [], result: "usize" },
  // CFTypeID CFDictionaryGetTypeID(void);
  CFDictionaryGetTypeID: { parameters: [], result: "usize" },
  // CFTypeID CFURLGetTypeID(void);
  CFURLGetTypeID: { parameters: [], result: "usize" },
  // CFTypeID CFAttributedStringGetTypeID(void);
  CFAttributedStringGetTypeID: { parameters: [], result: "usize" },
  // CFTypeID CFNullGetTypeID(void);
  CFNullGetTypeID: { parameters: [], result: "usize" },
  // CFStringRef CFStringCreateWithBytes(CFAllocatorRef alloc, const UInt8 *bytes,
  //                                     CFIndex numBytes, CFStringEncoding encoding,
  //                                     Boolean isExternalRepresentation);
  CFStringCreateWithBytes: {
    parameters: ["pointer", "buffer", "isize", "u32", "u8"],
    result: "pointer",
  },
  // CFIndex CFStringGetLength(CFStringRef theString);
  CFStringGetLength: { parameters: ["pointer"], result: "isize" },
  // CFIndex CFStringGetBytes(CFStringRef theString, CFRange range, CFStringEncoding encoding,
  //                          UInt8 lossByte, Boolean isExternalRepresentation,
  //                          UInt8 *buffer, CFIndex maxBufLen, CFIndex *usedBufLen);
  CFStringGetBytes: {
    parameters: ["pointer", CF_RANGE, "u32", "u8", "u8", "buffer", "isize", "buffer"],
    result: "isize",
  },
  // Boolean CFStringGetCString(CFStringRef theString, char *buffer, CFIndex bufferSize,
  //                            CFStringEncoding encoding);
  CFStringGetCString: { parameters: ["pointer", "buffer", "isize", "u32"], result: "u8" },
  // CFArrayRef CFArrayCreate(CFAllocatorRef allocator, const void **values,
  //                          CFIndex numValues, const CFArrayCallBacks *callBacks);
  CFArrayCreate: { parameters: ["pointer", "buffer", "isize", "pointer"], result: "pointer" },
  // CFIndex CFArrayGetCount(CFArrayRef theArray);
  CFArrayGetCount: { parameters: ["pointer"], result: "isize" },
  // const void *CFArrayGetValueAtIndex(CFArrayRef theArray, CFIndex idx);
  CFArrayGetValueAtIndex: { parameters: ["pointer", "isize"], result: "pointer" },
  // CFNumberRef CFNumberCreate(CFAllocatorRef allocator, CFNumberType theType,
  //                            const void *valuePtr);
  CFNumberCreate: { parameters: ["pointer", "isize", "buffer"], result: "pointer" },
  // Boolean CFNumberGetValue(CFNumberRef number, CFNumberType theType, void *valuePtr);
  CFNumberGetValue: { parameters: ["pointer", "isize", "buffer"], result: "u8" },
  // Boolean CFBooleanGetValue(CFBooleanRef boolean);
  CFBooleanGetValue: { parameters: ["pointer"], result: "u8" },
  // const void *CFDictionaryGetValue(CFDictionaryRef theDict, const void *key);
  CFDictionaryGetValue: { parameters: ["pointer", "pointer"], result: "pointer" },
  // CFStringRef CFURLGetString(CFURLRef anURL);
  CFURLGetString: { parameters: ["pointer"], result: "pointer" },
  // CFStringRef CFAttributedStringGetString(CFAttributedStringRef aStr);
  CFAttributedStringGetString: { parameters: ["pointer"], result: "pointer" },
  // CFRunLoopRef CFRunLoopGetCurrent(void);
  CFRunLoopGetCurrent: { parameters: [], result: "pointer" },
  // CFRunLoopRef CFRunLoopGetMain(void);
  CFRunLoopGetMain: { parameters: [], result: "pointer" },
  // void CFRunLoopAddSource(CFRunLoopRef rl, CFRunLoopSourceRef source, CFRunLoopMode mode);
  CFRunLoopAddSource: { parameters: ["pointer", "pointer", "pointer"], result: "void" },
  // void CFRunLoopRemoveSource(CFRunLoopRef rl, CFRunLoopSourceRef source,
  //                            CFRunLoopMode mode);
  CFRunLoopRemoveSource: { parameters: ["pointer", "pointer", "pointer"], result: "void" },
  // CFRunLoopRunResult CFRunLoopRunInMode(CFRunLoopMode mode, CFTimeInterval seconds,
  //                                       Boolean returnAfterSourceHandled);
  CFRunLoopRunInMode: { parameters: ["pointer", "f64", "u8"], result: "i32" },
  // void CFRunLoopStop(CFRunLoopRef rl);
  CFRunLoopStop: { parameters: ["pointer"], result: "void" },
  // void CFRunLoopWakeUp(CFRunLoopRef rl);
  CFRunLoopWakeUp: { parameters: ["pointer"], result: "void" },
  // const CFBooleanRef kCFBooleanTrue;
  kCFBooleanTrue: { type: "pointer" },
  // const CFBooleanRef kCFBooleanFalse;
  kCFBooleanFalse: { type: "pointer" },
  // const CFRunLoopMode kCFRunLoopDefaultMode;
  kCFRunLoopDefaultMode: { type: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

/** The loaded CoreFoundation symbols. */
export type CoreFoundation = Deno.DynamicLibrary<typeof CF_SYMBOLS>["symbols"];

/** `CFNumberType` values used here (CFNumber.h). */
export const CF_NUMBER_TYPE = {
  sInt32: 3n,
  sInt64: 4n,
  float64: 6n,
} as const;

/** `CFRunLoopRunResult` (CFRunLoop.h). */
export const CF_RUN_LOOP_RESULT = {
  finished: 1,
  stopped: 2,
  timedOut: 3,
  handledSource: 4,
} as const;
