/**
 * Joining the process's multithreaded apartment and creating `CUIAutomation8`, on the
 * worker's thread (the one that will make every UIA call).
 *
 * @module
 */
import { ComPtr, outPointer } from "../../ffi/windows/com.ts";
import { checkHr } from "../../ffi/windows/hresult.ts";
import { CLSCTX_INPROC_SERVER, COINIT_MULTITHREADED, type Ole32 } from "../../ffi/windows/ole32.ts";
import { CLSID_CUIAUTOMATION8, IID } from "./interfaces.ts";

/** ole32 functions the apartment needs (tests pass fakes). */
export type ApartmentLib = Pick<Ole32, "CoInitializeEx" | "CoCreateInstance" | "CoUninitialize">;

/**
 * Joins the MTA and returns the IUIAutomation2 of a new CUIAutomation8. On failure the
 * thread has left the apartment again. RPC_E_CHANGED_MODE (the thread is already
 * single-threaded) surfaces as `driver_unavailable`.
 */
export function createAutomation(ole32: ApartmentLib): ComPtr {
  // S_FALSE: this thread was already in the MTA, which is what we asked for.
  checkHr(ole32.CoInitializeEx(null, COINIT_MULTITHREADED), "CoInitializeEx");
  try {
    const out = outPointer();
    checkHr(
      ole32.CoCreateInstance(
        CLSID_CUIAUTOMATION8,
        null,
        CLSCTX_INPROC_SERVER,
        IID.IUIAutomation2,
        out,
      ),
      "CoCreateInstance(CUIAutomation8)",
    );
    return ComPtr.expectOut(out, "IUIAutomation2", "CoCreateInstance");
  } catch (err) {
    ole32.CoUninitialize();
    throw err;
  }
}
