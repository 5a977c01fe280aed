/**
 * The session table of `serve --http` on a clock the test drives: a session
 * expires once idle longer than `idleMs` (not at it), a request let through
 * restarts its idle time and a refused one does not, and a full table
 * reclaims expired sessions before it answers 503.
 */
import { describe, expect, test } from 'bun:test';
import { HttpSessions } from './http-sessions.ts';

const VERSION = '2025-06-18';
const IDLE_MS = 1_000;

/** A table of `limit` slots on a clock that moves only when the test says so. */
function table(limit = 4) {
  let now = 0;
  const sessions = new HttpSessions({ limit, idleMs: IDLE_MS, now: () => now });
  const headers = (sessionId: string, version: string | null = VERSION) => ({ sessionId, version });
  return { sessions, headers, advance: (ms: number) => void (now += ms), fresh: { sessionId: null, version: null } };
}

describe('HttpSessions: idle expiry', () => {
  test('a session idle exactly idleMs is live; one millisecond more and it is 404 (expired), then 404 as never opened', () => {
    const { sessions, headers, advance } = table();
    const id = sessions.open(VERSION);
    advance(IDLE_MS);
    expect(sessions.refuse(headers(id))).toBeUndefined();
    advance(IDLE_MS + 1);
    expect(sessions.size).toBe(0);
    expect(sessions.refuse(headers(id))).toEqual({ status: 404, message: `session expired: idle for more than ${IDLE_MS} ms (httpSessionIdleMs): initialize again` });
    expect(sessions.refuse(headers(id))).toEqual({ status: 404, message: 'no such session (never opened, or ended): initialize again' });
  });

  test('each request let through restarts the idle time; a refused one (wrong version) does not', () => {
    const { sessions, headers, advance } = table();
    const id = sessions.open(VERSION);
    for (let n = 0; n < 5; n++) {
      advance(IDLE_MS);
      expect(sessions.refuse(headers(id))).toBeUndefined();
    }
    advance(IDLE_MS);
    expect(sessions.refuse(headers(id, '2025-03-26'))?.status).toBe(400);
    advance(1);
    expect(sessions.refuse(headers(id))?.status).toBe(404);
  });

  test('a full table reclaims expired sessions before it answers 503; live ones keep their slots', () => {
    const { sessions, headers, advance, fresh } = table(3);
    const [kept, idle1, idle2] = [sessions.open(VERSION), sessions.open(VERSION), sessions.open(VERSION)];
    expect(sessions.refuseOpen(fresh)).toEqual({ status: 503, message: '3 sessions are live (httpSessions); end one with DELETE first' });
    advance(IDLE_MS / 2);
    expect(sessions.refuse(headers(kept))).toBeUndefined();
    advance(IDLE_MS / 2 + 1);
    expect(sessions.size).toBe(1);
    expect(sessions.refuseOpen(fresh)).toBeUndefined();
    sessions.open(VERSION);
    sessions.open(VERSION);
    // Full again, every session live: 503, and the reclaimed ones stay gone.
    expect(sessions.refuseOpen(fresh)?.status).toBe(503);
    expect([sessions.refuse(headers(idle1))?.status, sessions.refuse(headers(idle2))?.status, sessions.refuse(headers(kept))]).toEqual([404, 404, undefined]);
  });

  test('an initialize carrying a session id is 400 whatever the table holds', () => {
    const { sessions, headers } = table(1);
    const id = sessions.open(VERSION);
    expect(sessions.refuseOpen(headers(id))?.status).toBe(400);
  });
});
