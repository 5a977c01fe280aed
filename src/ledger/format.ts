/**
 * The on-disk format of a run record.
 *
 * `ledger.jsonl` holds one event per line: the canonical JSON (sorted keys, no
 * whitespace — `canonicalJson`) of `{ seq, type, at, prev, ...data }`, then
 * `\n`. `seq` counts from 0; `prev` is the sha256 of the previous line's bytes
 * (without its `\n`), or `GENESIS` for the first line. An event's hash is the
 * sha256 of its own line; the head is the hash of the last line.
 *
 * File references — the one rule verify relies on: an event names the files it
 * vouches for in a top-level `files` array of `{ role, path, sha256, bytes }`
 * (exactly these keys; `path` relative to the run dir, `/`-separated). Nothing
 * else in an event is interpreted as a file, however it looks, so a payload that
 * happens to contain `{ path, sha256 }` is never mistaken for a reference and a
 * reference can never hide in a nested field. Every file in the run dir other
 * than the ledger and its seal must be referenced by at least one event.
 *
 * `ledger.head` (the seal, written by `close()`) is the canonical JSON of
 * `{ count, format, head }` and `\n`; `format` names the record's version (`LEDGER_FORMAT`).
 * It anchors the last line: without it an
 * edit to the final event, or a deleted final line, would leave a valid chain.
 */
import { canonicalJson, fail, ok, type Outcome } from '../contract/index.ts';
import { checkRelPath } from './rel-path.ts';

/**
 * The base record format: the first whose `run_end` says how the run ended
 * (`ending`, `cause`); event fields added in the same release share it.
 * Policy: the version is bumped whenever the shape of a line, the seal, or
 * any event changes (a field added, removed, renamed or retyped): each
 * event's schema per format is in `events.ts`, and `events.test.ts` fails
 * while a known format's schemas differ from the committed
 * `events.schema.json`. A verifier reads only the versions it lists in
 * `KNOWN_FORMATS` and refuses any other as `evidence/unknown_format` before
 * interpreting a single line.
 */
export const LEDGER_FORMAT_2 = 'caplab.ledger/2';

/**
 * Version 3 adds two shapes: a call whose tool_result carries hook blocks
 * after the tool's own (`hook_text_sha256`, one hash per block), and a plain
 * Agent Skills method (`method.plain`, its body hashed). A version 3 record
 * used one of them (no run names it any more: every new run is version 4).
 */
export const LEDGER_FORMAT_3 = 'caplab.ledger/3';

/**
 * Version 4, which every new run names but one with configured servers: it has version 3's shapes, and adds
 * the task (`run_start.task`, by which verify finds the task's recheck; a
 * task's own fields of run_start and request, such as the excerpt's
 * `snapshot` and `disclosed_sources`, are the task's and no longer named by
 * the ledger), the model's origin (`run_start.model` scripted or replayed
 * with its replay file, `run_start.scenario` null for a replay, a response's
 * `origin` and recorded usage with cache counts, `run_end.replay`), calls'
 * result blocks (`model_content_sha256` replaces `model_text_sha256`), the
 * host's built-ins (`via: "host"`, a binding's `implementation.kind` `host`)
 * and a binding's server by key and endpoint.
 */
export const LEDGER_FORMAT_4 = 'caplab.ledger/4';

/**
 * Version 5, which only a run with servers a user configured
 * (`--mcp-config`) names: version 4's shapes, and each configured server in
 * `run_start.servers` (its key, identity, status and every tool it listed,
 * bound or not) and `run_end.servers` (its close, the `list_changed` it sent
 * and the re-lists after them, its stderr's tail); a binding may record its
 * full and model names (`naming`) and a tool's annotations (`contract.hints`).
 * Every other run keeps version 4, and its bytes.
 */
export const LEDGER_FORMAT_5 = 'caplab.ledger/5';

/**
 * Version 6, which only a run of a task that keeps its calls' results (the
 * expectations task: `Task.keepsResults`) names: version 5's shapes, and a
 * call event may reference its result data (`results/<action>.json`, role
 * `call_result`: the data as canonical JSON, whose sha256 is the outcome's
 * `data_sha256`); its run_start references the scenario it ran (role
 * `scenario`). Every other run keeps version 4 or 5, and its bytes.
 */
export const LEDGER_FORMAT_6 = 'caplab.ledger/6';

/**
 * Version 7, which only a run whose tools carry a server reached over
 * Streamable HTTP names: version 6's shapes, and a server's endpoint (a
 * binding's `server.endpoint`, a configured server's `identity.endpoint`)
 * may be `{ kind: "http", url, headerNames }` — the URL connected to and the
 * names of the headers sent, never a header value; `run_start.server` may
 * be such a server (`url`, `headerNames`, `sessionSha256`); a configured
 * server's start may carry `session_sha256`, the sha256 of the
 * `Mcp-Session-Id` it issued at initialize (the id itself is never
 * recorded); a call's `protocol.transport` may be `mcp-http`. Every other
 * run keeps version 4, 5 or 6, and its bytes.
 */
export const LEDGER_FORMAT_7 = 'caplab.ledger/7';

/**
 * Version 8, which only a run that defers tools names: version 7's shapes,
 * and the defer rules in run_start (`defer`, the names as given), each
 * request's `disclosed_tools` (the deferred tools its payload disclosed, by
 * `toolDisclosure` of its bytes) and `visible_tool_bytes`, and `deferred:
 * true` on a deferred tool's entry of a request's `tools`. Every other run
 * keeps version 4 to 7, and its bytes.
 */
export const LEDGER_FORMAT_8 = 'caplab.ledger/8';

/**
 * Version 9, which only a run in skill tool mode (`--skill-mode tool`)
 * names: version 8's shapes, and `skill_mode: "tool"` in run_start, each
 * request's `skill_catalog` (the package names its `<skills>` block lists,
 * read from its bytes), and an adoption record's `via: "skill_tool"` and
 * `tool_use_id` (the Skill result its material came from). Every other run
 * keeps version 4 to 8, and its bytes.
 */
export const LEDGER_FORMAT_9 = 'caplab.ledger/9';

/**
 * Version 10, which a run in skill tool mode names from W8's dynamic
 * discovery on: version 9's shapes, and in run_start `skill_packages` (each
 * package the Skill tool may serve: name, kind, hash, origin, catalog status
 * at start and its `paths` globs; a plain one's body sha256) and
 * `skill_nested` (whether a touch looks for nested `.claude/skills/`), the
 * `skill_visible` event (a package a successful call's touch made visible:
 * name, hash, origin, the triggering action, the touched path, and the glob
 * or the nested folder) and the `skill_found` event (what a nested folder
 * held that did not become visible at once: packages held by `paths`,
 * refused ones, ones skipped past `LIMITS.skillPackages` or as a second
 * package of one name). Every other run keeps version 4 to 8, and its bytes;
 * a version 9 record stays readable.
 */
export const LEDGER_FORMAT_10 = 'caplab.ledger/10';

/**
 * Version 11, which only a run that offers the host's `Agent` names: version
 * 10's shapes, and the subagent types in run_start (`agents`), a subagent's
 * `subagent_start` and `subagent_end` events, and `agent_id` on the request,
 * response and call events of its own loop. Every other run keeps version 4
 * to 10, and its bytes.
 */
export const LEDGER_FORMAT_11 = 'caplab.ledger/11';

/**
 * Version 12, which only a run whose tools include one that completes in the
 * background names (a configured server's tool called as an MCP 2025-11-25
 * task): version 11's shapes, and a binding's `contract.completion`, and a
 * call's `task` (its receipt, each status as first seen with its time, the
 * polls, the one cancel, the `tasks/result` exchange). Every other run keeps
 * version 4 to 11, and its bytes.
 */
export const LEDGER_FORMAT_12 = 'caplab.ledger/12';

/** The format a new run names, unless its tools carry configured servers (`LEDGER_FORMAT_5`), its task keeps results (`LEDGER_FORMAT_6`), a server is reached over HTTP (`LEDGER_FORMAT_7`) it defers tools (`LEDGER_FORMAT_8`), runs in skill tool mode (`LEDGER_FORMAT_10`; a version 9 record was one before dynamic discovery), offers `Agent` (`LEDGER_FORMAT_11`) or has a tool that completes in the background (`LEDGER_FORMAT_12`). */
export const LEDGER_FORMAT = LEDGER_FORMAT_4;

/** Every format this verifier can read, oldest first (version 1 records predate `ending` and are not read). */
export const KNOWN_FORMATS = [LEDGER_FORMAT_2, LEDGER_FORMAT_3, LEDGER_FORMAT_4, LEDGER_FORMAT_5, LEDGER_FORMAT_6, LEDGER_FORMAT_7, LEDGER_FORMAT_8, LEDGER_FORMAT_9, LEDGER_FORMAT_10, LEDGER_FORMAT_11, LEDGER_FORMAT_12] as const;
/** A record format this verifier reads. */
export type RecordFormat = (typeof KNOWN_FORMATS)[number];

/** Whether a record of `format` has the shapes of `from` (its format is `from` or a later one). */
export function isFormatFrom(format: RecordFormat, from: RecordFormat): boolean {
  return KNOWN_FORMATS.indexOf(format) >= KNOWN_FORMATS.indexOf(from);
}

/** Whether this verifier reads records of `format`. */
export function isKnownFormat(format: unknown): format is RecordFormat {
  return (KNOWN_FORMATS as readonly unknown[]).includes(format);
}

/** `prev` of the first event. */
export const GENESIS: string = '0'.repeat(64);

/** Keys the ledger sets on every event; `data` may not supply them. */
export const ENVELOPE_KEYS: readonly string[] = ['seq', 'type', 'at', 'prev'];

/** A file an event vouches for. */
export interface FileRef {
  /** What the file is to the run, e.g. `request_payload`, `card`. */
  readonly role: string;
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** An event as read back from the ledger. */
export interface LedgerEvent {
  readonly seq: number;
  readonly type: string;
  readonly at: string;
  readonly prev: string;
  readonly files?: readonly FileRef[] | undefined;
  readonly [key: string]: unknown;
}

/** The seal's content. */
export interface Seal {
  readonly count: number;
  readonly format: RecordFormat;
  readonly head: string;
}

/** An event `type`: lowercase, starting with a letter (`run_start`, `request`, `acceptance.check`). */
export const EVENT_TYPE: RegExp = /^[a-z][a-z0-9_.]{0,63}$/;

const SHA256 = /^[0-9a-f]{64}$/;
const ROLE = /^[a-z][a-z0-9_]{0,63}$/;
const REF_KEYS = 'bytes,path,role,sha256';

/** Whether a string is a lowercase hex sha256. */
export function isSha256(value: unknown): value is string {
  return typeof value === 'string' && SHA256.test(value);
}

/**
 * Reads the `files` array of an event (absent = no references), checking every
 * entry's shape and path. Shared by the writer and the verifier so both hold
 * events to the same rule.
 */
export function fileRefsOf(event: Readonly<Record<string, unknown>>): Outcome<readonly FileRef[]> {
  const files = event['files'];
  if (files === undefined) return ok([]);
  if (!Array.isArray(files)) return fail('evidence', 'bad_reference', '`files` must be an array of { role, path, sha256, bytes }');
  for (const [i, entry] of files.entries()) {
    const where = `files[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry) || Object.keys(entry).sort().join(',') !== REF_KEYS) {
      return fail('evidence', 'bad_reference', `${where} must have exactly the keys role, path, sha256, bytes`);
    }
    const ref = entry as Record<string, unknown>;
    if (typeof ref['role'] !== 'string' || !ROLE.test(ref['role'])) {
      return fail('evidence', 'bad_reference', `${where}.role must match ${ROLE.source}`);
    }
    if (typeof ref['path'] !== 'string' || !checkRelPath(ref['path']).ok) {
      return fail('evidence', 'bad_reference', `${where}.path ${JSON.stringify(ref['path'])} is not a run-dir path`);
    }
    if (!isSha256(ref['sha256'])) return fail('evidence', 'bad_reference', `${where}.sha256 must be 64 lowercase hex digits`);
    if (!Number.isSafeInteger(ref['bytes']) || (ref['bytes'] as number) < 0) {
      return fail('evidence', 'bad_reference', `${where}.bytes must be a non-negative integer`);
    }
  }
  return ok(files as FileRef[]);
}

/** Encodes the seal file's bytes (of any format: a test forges unknown ones). */
export function encodeSeal(seal: Omit<Seal, 'format'> & { readonly format: string }): string {
  return `${canonicalJson(seal)}\n`;
}

/** Parses the seal; the bytes must be exactly what `encodeSeal` would write. */
export function parseSeal(text: string): Outcome<Seal> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('evidence', 'bad_seal', 'ledger.head is not JSON');
  }
  const seal = value as Partial<Seal> | null;
  if (
    typeof seal !== 'object' ||
    seal === null ||
    Object.keys(seal).sort().join(',') !== 'count,format,head' ||
    !Number.isSafeInteger(seal.count) ||
    typeof seal.format !== 'string' ||
    !isSha256(seal.head) ||
    encodeSeal(seal as Seal) !== text
  ) {
    return fail('evidence', 'bad_seal', 'ledger.head is not a canonical { count, format, head } line');
  }
  if (!isKnownFormat(seal.format)) {
    return fail('evidence', 'unknown_format', `ledger.head declares format ${JSON.stringify(seal.format)}; this verifier reads ${KNOWN_FORMATS.join(', ')}`);
  }
  return ok(seal as Seal);
}
