/**
 * Shapes exchanged with `DBusConnection` callers.
 *
 * @module
 */

/** A method call to send. */
export interface MethodCall {
  /**
   * Bus name of the receiver, e.g. `org.freedesktop.DBus` or `:1.42`; left out on a
   * peer-to-peer connection, where there is only one receiver.
   */
  readonly destination?: string;
  /** Object path on the receiver. */
  readonly path: string;
  /** Interface that declares the method. */
  readonly interface: string;
  /** Method name. */
  readonly member: string;
  /** Signature of `body`; defaults to empty. */
  readonly signature?: string;
  /** Arguments, one per complete type of `signature`. */
  readonly body?: readonly unknown[];
}

/** Per-call knobs. */
export interface CallOptions {
  /** Aborting rejects the call with the signal's reason; a late reply is then dropped. */
  readonly signal?: AbortSignal;
  /** Time limit in ms (default 25 000); `Infinity` waits forever. */
  readonly timeoutMs?: number;
}

/** A signal to emit. */
export interface SignalEmission {
  /** Object path the signal comes from. */
  readonly path: string;
  /** Interface that declares the signal. */
  readonly interface: string;
  /** Signal name. */
  readonly member: string;
  /** Signature of `body`; defaults to empty. */
  readonly signature?: string;
  /** Signal arguments. */
  readonly body?: readonly unknown[];
  /** Unicast target; omitted for a broadcast. */
  readonly destination?: string;
}

/** A signal that arrived. */
export interface DBusSignal {
  /** Unique name of the emitter (filled in by the bus; `""` on a peer-to-peer link). */
  readonly sender: string;
  /** Object path the signal comes from. */
  readonly path: string;
  /** Interface that declares the signal. */
  readonly interface: string;
  /** Signal name. */
  readonly member: string;
  /** Signature of `body`. */
  readonly signature: string;
  /** Decoded signal arguments. */
  readonly body: unknown[];
}

/** A method call that arrived for this connection. */
export interface IncomingCall {
  /** The caller's serial, which a reply must name. */
  readonly serial: number;
  /** Unique name of the caller. */
  readonly sender: string;
  /** Target object path. */
  readonly path: string;
  /** Target interface, which callers may omit. */
  readonly interface: string | undefined;
  /** Method name. */
  readonly member: string;
  /** Signature of `body`. */
  readonly signature: string;
  /** Decoded arguments. */
  readonly body: unknown[];
  /** Whether the caller asked for no reply. */
  readonly noReplyExpected: boolean;
}

/** Options for `DBusConnection.connect`. */
export interface ConnectOptions {
  /** Aborting gives up connecting, authenticating and saying Hello. */
  readonly signal?: AbortSignal;
  /**
   * A peer-to-peer connection straight to one process (AT-SPI's per-app sockets): there is
   * no bus daemon, so no Hello and no unique name.
   */
  readonly peer?: boolean;
  /** Hears exceptions thrown by signal, method-call and close listeners, which are otherwise dropped. */
  readonly onListenerError?: (error: unknown) => void;
}
