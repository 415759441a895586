/**
 * The audit log as the tracing needs it: routing.ts tells its decision (engine, reason,
 * app, window) to the audit log only, so this one can also hand each entry to a listener
 * while a trace records.
 *
 * @module
 */
import { type AuditEntry, AuditLog } from "../../router/mod.ts";

/** An audit log that can also tell each entry to a listener (the tracing). */
export class TappedAuditLog extends AuditLog {
  /** Told each entry after it is queued; unset while no trace records. */
  tap: ((entry: AuditEntry) => void) | undefined;

  /** Queues the line, then tells the tap. */
  override append(entry: AuditEntry): void {
    super.append(entry);
    this.tap?.(entry);
  }
}
