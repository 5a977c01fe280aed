/**
 * The sessions of `caplab serve --http`: one per answered initialize, named
 * by a random id the client echoes in `Mcp-Session-Id`, holding the version
 * negotiated (every later request must send it as `MCP-Protocol-Version`).
 * A session ends on DELETE, when the server stops, or once it has been idle
 * longer than `idleMs` (a client that never sends DELETE must not hold a
 * slot for good); at most `limit` live.
 */

/** The protocol version a request without `MCP-Protocol-Version` is read as (Streamable HTTP, 2025-06-18). */
export const ABSENT_VERSION = '2025-03-26';

/** Why a request is refused before it is answered: its HTTP status and a one-line message. */
export interface Refusal {
  readonly status: 400 | 404 | 503;
  readonly message: string;
}

export interface SessionHeaders {
  readonly sessionId: string | null;
  readonly version: string | null;
}

/** The bounds of the session table and the clock it measures idleness by (milliseconds; injectable for tests). */
export interface SessionBounds {
  readonly limit: number;
  readonly idleMs: number;
  readonly now: () => number;
}

interface Session {
  readonly version: string;
  /** When the session's last request was let through (or it was opened). */
  lastActive: number;
}

export class HttpSessions {
  readonly #sessions = new Map<string, Session>();
  readonly #bounds: SessionBounds;

  constructor(bounds: SessionBounds) {
    this.#bounds = bounds;
  }

  /** Sessions live now (an expired one not yet reclaimed is not counted). */
  get size(): number {
    let live = 0;
    for (const session of this.#sessions.values()) if (!this.#expired(session)) live += 1;
    return live;
  }

  /** Whether a session has been idle longer than `idleMs`: it is over, whether or not it was reclaimed yet. */
  #expired(session: Session): boolean {
    return this.#bounds.now() - session.lastActive > this.#bounds.idleMs;
  }

  /** Forgets every expired session; how many there were. */
  #reclaim(): number {
    let reclaimed = 0;
    for (const [id, session] of this.#sessions) {
      if (this.#expired(session)) {
        this.#sessions.delete(id);
        reclaimed += 1;
      }
    }
    return reclaimed;
  }

  /**
   * Why an initialize cannot open a session now, if it cannot: it carried a
   * session id, or every slot is taken by a live session (expired ones are
   * reclaimed first, so abandoned sessions never keep the server full).
   */
  refuseOpen(headers: SessionHeaders): Refusal | undefined {
    if (headers.sessionId !== null) return { status: 400, message: 'initialize opens a session: send it without Mcp-Session-Id' };
    if (this.#sessions.size >= this.#bounds.limit) this.#reclaim();
    if (this.#sessions.size >= this.#bounds.limit) return { status: 503, message: `${this.#bounds.limit} sessions are live (httpSessions); end one with DELETE first` };
    return undefined;
  }

  /** Opens a session for the version an initialize negotiated; its id is 122 random bits as a UUID (visible ASCII). */
  open(version: string): string {
    const id = crypto.randomUUID();
    this.#sessions.set(id, { version, lastActive: this.#bounds.now() });
    return id;
  }

  /**
   * Why a request inside a session is refused, if it is: no session id (400),
   * one expired or not live (404: the client then initializes again), the
   * wrong version (400). A request let through is the session's activity:
   * its idle time starts again.
   */
  refuse(headers: SessionHeaders): Refusal | undefined {
    if (headers.sessionId === null) return { status: 400, message: 'Mcp-Session-Id is required after initialize' };
    const session = this.#sessions.get(headers.sessionId);
    if (session !== undefined && this.#expired(session)) {
      this.#sessions.delete(headers.sessionId);
      return { status: 404, message: `session expired: idle for more than ${this.#bounds.idleMs} ms (httpSessionIdleMs): initialize again` };
    }
    const version = session?.version;
    if (version === undefined) return { status: 404, message: 'no such session (never opened, or ended): initialize again' };
    if (headers.version === null) {
      return { status: 400, message: `MCP-Protocol-Version is required: without it a request is read as ${ABSENT_VERSION}, which this server does not speak (negotiated ${version})` };
    }
    if (headers.version !== version) return { status: 400, message: `MCP-Protocol-Version ${JSON.stringify(headers.version.slice(0, 40))} is not the negotiated ${version}` };
    session!.lastActive = this.#bounds.now();
    return undefined;
  }

  /** Ends a live session (the caller refused the request first when it is not). */
  end(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }
}
