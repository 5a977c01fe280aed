/**
 * The sessions of `caplab serve --http`: one per answered initialize, named
 * by a random id the client echoes in `Mcp-Session-Id`, holding the version
 * negotiated (every later request must send it as `MCP-Protocol-Version`).
 * A session ends on DELETE or when the server stops; at most `limit` live.
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

export class HttpSessions {
  readonly #versions = new Map<string, string>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#versions.size;
  }

  /** Why an initialize cannot open a session now, if it cannot: it carried a session id, or every slot is taken. */
  refuseOpen(headers: SessionHeaders): Refusal | undefined {
    if (headers.sessionId !== null) return { status: 400, message: 'initialize opens a session: send it without Mcp-Session-Id' };
    if (this.#versions.size >= this.#limit) return { status: 503, message: `${this.#limit} sessions are live (httpSessions); end one with DELETE first` };
    return undefined;
  }

  /** Opens a session for the version an initialize negotiated; its id is 122 random bits as a UUID (visible ASCII). */
  open(version: string): string {
    const id = crypto.randomUUID();
    this.#versions.set(id, version);
    return id;
  }

  /** Why a request inside a session is refused, if it is: no session id (400), one not live (404), the wrong version (400). */
  refuse(headers: SessionHeaders): Refusal | undefined {
    if (headers.sessionId === null) return { status: 400, message: 'Mcp-Session-Id is required after initialize' };
    const version = this.#versions.get(headers.sessionId);
    if (version === undefined) return { status: 404, message: 'no such session (never opened, or ended): initialize again' };
    if (headers.version === null) {
      return { status: 400, message: `MCP-Protocol-Version is required: without it a request is read as ${ABSENT_VERSION}, which this server does not speak (negotiated ${version})` };
    }
    if (headers.version !== version) return { status: 400, message: `MCP-Protocol-Version ${JSON.stringify(headers.version.slice(0, 40))} is not the negotiated ${version}` };
    return undefined;
  }

  /** Ends a live session (the caller refused the request first when it is not). */
  end(sessionId: string): void {
    this.#versions.delete(sessionId);
  }
}
