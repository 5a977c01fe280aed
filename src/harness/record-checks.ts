import * as v from 'valibot';
import { canonicalJson, jsonTooDeep, LIMITS, sha256Hex } from '../contract/index.ts';
import type { Event, ReadRecorded, VerifyFailure } from '../ledger/index.ts';
import { failAt } from '../ledger/index.ts';
import { exitCodeOf } from '../base/index.ts';
import { callsEnding } from './ending.ts';

/** Where an event is, for a failure that names it. */
export const eventAt = (event: { readonly seq: number; readonly type: string }) => ({ file: 'ledger.jsonl', line: event.seq + 1, seq: event.seq, type: event.type });

/** A call event as the record checks read it. */
export interface CheckedCall {
  readonly event: Event<'call'>;
  readonly requestId: string;
  readonly toolCallId: string;
  readonly name: string;
  readonly arguments: Event<'call'>['arguments'];
  readonly ok: boolean;
  /** A failed call's class and kind. */
  readonly failure?: { readonly class: string; readonly kind: string };
  /**
   * The tool_result as the call recorded it: the sha256 of the canonical JSON
   * of its blocks (`model_content_sha256`), or, in a record made before that
   * field, the sha256 of the tool's one text block's text.
   */
  readonly result: { readonly contentSha256: string } | { readonly textSha256: string };
  /** Each hook block's text hash (the blocks after the tool's), in order. */
  readonly hookHashes: readonly string[];
}

/** One tool_use block of a recorded model response. */
export interface RecordedUse {
  readonly id: string;
  readonly name: string;
  /** Canonical JSON of its input; undefined when JSON cannot carry it. */
  readonly input: string | undefined;
}

// A tool_result block of a recorded request payload (a file, not an event).
const ResultShape = v.looseObject({
  type: v.literal('tool_result'),
  tool_use_id: v.string(),
  is_error: v.optional(v.unknown()),
  content: v.union([v.string(), v.array(v.looseObject({ type: v.string() }))]),
});

/** What the record checks are given: the parsed events and calls, the response files' tool_uses, verified files. */
export interface RecordFacts {
  readonly events: readonly Event[];
  readonly calls: readonly CheckedCall[];
  /** Each response event's tool_use blocks, in order (from its verified response file). */
  readonly uses: ReadonlyMap<Event, readonly RecordedUse[]>;
  readonly readFile: ReadRecorded;
}

/**
 * The record's facts must tell one story (issue W1): every tool_use of a
 * response has exactly one call event, in order, naming that response's
 * request and recorded after the response and before the next request (a run
 * that did not complete may stop part way through its last response's calls);
 * every tool_result a request payload carries answers, in order, a call
 * recorded before that request, with the error flag and content hash (and
 * hook block hashes) it recorded; `run_end`'s counts are the events'. A
 * task's own fields of the record are its recheck's
 * (`Task.acceptance.recorded`). (That no shape newer than the seal's format
 * appears, `verify` has checked with the event schemas.)
 */
export function checkRecord(facts: RecordFacts): VerifyFailure | undefined {
  return checkLevel(facts, facts.events.find((e) => e.type === 'run_end')?.ending === 'completed') ?? checkCounts(facts);
}

/**
 * One loop's story (the run's own, or a subagent's, its events alone): call
 * order and payload results. `completed`: its last response's calls must all
 * be recorded.
 */
export function checkLevel(facts: RecordFacts, completed: boolean): VerifyFailure | undefined {
  return checkCallOrder(facts, completed) ?? checkPayloads(facts);
}

/** Walks the ledger in order, matching each response's tool_uses to the call events after it. */
function checkCallOrder({ events, calls, uses }: RecordFacts, completed: boolean): VerifyFailure | undefined {
  const byEvent = new Map<Event, CheckedCall>(calls.map((call) => [call.event, call]));
  let request: string | undefined;
  let pending: { response: Event; uses: readonly RecordedUse[]; next: number } | undefined;
  const missing = (): VerifyFailure | undefined => {
    const use = pending?.uses[pending.next];
    return use ? failAt('call_missing', `tool_use ${use.id} (${use.name}) of the response to ${request} has no call event recorded after it and before the next request`, eventAt(pending!.response)) : undefined;
  };
  for (const event of events) {
    if (event.type === 'request') {
      const left = missing();
      if (left) return left;
      request = event.request_id;
      pending = undefined;
    } else if (event.type === 'response') {
      if (event.request_id !== request || pending) {
        return failAt('misplaced_event', `line ${event.seq + 1} is not the one response to the request before it (${request ?? 'none'})`, eventAt(event));
      }
      pending = { response: event, uses: uses.get(event) ?? [], next: 0 };
    } else if (event.type === 'call') {
      const call = byEvent.get(event)!;
      const use = pending?.uses[pending.next];
      if (!pending || call.requestId !== request || !use || use.id !== call.toolCallId || use.name !== call.name || use.input !== canonicalOf(call.arguments.original)) {
        return failAt('call_unasked', `call ${call.toolCallId} (${call.name}, request ${call.requestId}) is not the next tool_use the response to ${request ?? 'no request'} asked for`, eventAt(event));
      }
      pending.next++;
    }
  }
  // A run that did not complete may have stopped part way through its last response's calls.
  return completed ? missing() : undefined;
}

/** Each request payload's tool_results against the calls before it. */
function checkPayloads(facts: RecordFacts): VerifyFailure | undefined {
  const byEvent = new Map<Event, CheckedCall>(facts.calls.map((call) => [call.event, call]));
  const before: CheckedCall[] = [];
  for (const event of facts.events) {
    if (event.type === 'call') before.push(byEvent.get(event)!);
    if (event.type !== 'request') continue;
    const request = event;
    const ref = request.files.find((f) => f.role === 'request_payload');
    const bytes = ref ? facts.readFile(ref.path) : undefined;
    if (!bytes?.ok) return failAt('result_mismatch', `request ${request.request_id} has no readable payload file`, eventAt(request));
    const results = payloadResults(bytes.value);
    const wrong = results === undefined ? 'its payload is not a JSON request payload' : resultMismatch(results, before);
    if (wrong) return failAt('result_mismatch', `request ${request.request_id}: ${wrong}`, eventAt(request));
  }
  return undefined;
}

/** A tool_result of a payload, as the tie reads it. */
interface PayloadResult {
  readonly id: string;
  readonly isError: boolean;
  /** sha256 of the canonical JSON of its content as carried; undefined when JSON cannot be canonical (1e400). */
  readonly contentSha256: string | undefined;
  /** Each block's text hash (a string content is one text block); undefined for a block that is not text. */
  readonly textHashes: readonly (string | undefined)[];
}

/** Whether a tool_result carries the blocks its call recorded: by content hash, or (older records) by each text's hash. */
function carriesRecorded(result: PayloadResult, call: CheckedCall): boolean {
  const hooks = call.hookHashes;
  const hooksHeld = result.textHashes.length > hooks.length && canonicalOf(result.textHashes.slice(result.textHashes.length - hooks.length)) === canonicalJson(hooks);
  if ('contentSha256' in call.result) return result.contentSha256 === call.result.contentSha256 && hooksHeld;
  return canonicalOf(result.textHashes) === canonicalJson([call.result.textSha256, ...hooks]);
}

/** Why a payload's tool_results are not the recorded calls' answers, in order; undefined when they are. */
function resultMismatch(results: readonly PayloadResult[], calls: readonly CheckedCall[]): string | undefined {
  if (results.length !== calls.length) return `its payload carries ${results.length} tool_results, ${calls.length} calls were recorded before it`;
  for (const [i, result] of results.entries()) {
    const call = calls[i]!;
    if (result.id !== call.toolCallId) return `tool_result ${i + 1} answers ${result.id}, the call recorded in its place is ${call.toolCallId}`;
    if (result.isError === call.ok) return `the tool_result for ${call.toolCallId} says is_error=${result.isError}, the call recorded ok=${call.ok}`;
    if (!carriesRecorded(result, call)) return `the tool_result for ${call.toolCallId} is not the content (and hook blocks) the call recorded`;
  }
  return undefined;
}

/** The tool_result blocks of a payload's user messages, in order; undefined when it is no payload. */
function payloadResults(bytes: Uint8Array): PayloadResult[] | undefined {
  const payload = parseJson(bytes) as { messages?: unknown } | undefined;
  if (!payload || !Array.isArray(payload.messages)) return undefined;
  const results: PayloadResult[] = [];
  for (const message of payload.messages) {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    if (role !== 'user' || !Array.isArray(content)) continue;
    for (const block of content) {
      if ((block as { type?: unknown })?.type !== 'tool_result') continue;
      const result = v.safeParse(ResultShape, block);
      if (!result.success) return undefined;
      const { tool_use_id: id, is_error: isError, content } = result.output;
      const texts = typeof content === 'string' ? [content] : content.map((b) => (b.type === 'text' && typeof b['text'] === 'string' ? b['text'] : undefined));
      const canonical = canonicalOf(content);
      results.push({ id, isError: isError === true, contentSha256: canonical === undefined ? undefined : sha256Hex(canonical), textHashes: texts.map((text) => (text === undefined ? undefined : sha256Hex(text))) });
    }
  }
  return results;
}

function checkCounts({ events, calls }: RecordFacts): VerifyFailure | undefined {
  const end = events.find((e) => e.type === 'run_end');
  if (!end) return undefined;
  const actual = { requests: events.filter((e) => e.type === 'request').length, tool_calls: events.filter((e) => e.type === 'call').length };
  for (const key of ['requests', 'tool_calls'] as const) {
    const recorded = end[key];
    if (recorded !== undefined && recorded !== actual[key]) return failAt('count_mismatch', `run_end counts ${recorded} ${key}, the ledger has ${actual[key]}`, eventAt(end));
  }
  return checkExit(end, calls);
}

/** A completed run's exit code re-derived from its calls and verdict; an interrupted one's from the signal it names. */
function checkExit(end: Event<'run_end'>, calls: readonly CheckedCall[]): VerifyFailure | undefined {
  const expected =
    end.ending === 'completed' ? exitCodeOf(callsEnding(calls.flatMap((c) => (c.failure ? [c.failure] : [])), end.accepted))
    : end.ending === 'interrupted' ? interruptedExit(end.cause)
    : undefined;
  if (expected === undefined || expected === end.exit_code) return undefined;
  return failAt('count_mismatch', `run_end records exit ${end.exit_code}; its calls and ending give ${expected}`, eventAt(end));
}

/** An interrupted run's exit code, from the signal its cause names first; undefined when it names neither. */
function interruptedExit(cause: string | undefined): number | undefined {
  const signal = ['SIGINT', 'SIGTERM'].find((name) => cause?.startsWith(name));
  return signal === undefined ? undefined : exitCodeOf({ type: 'interrupted', signal });
}

/** Parses recorded JSON, depth-checked first; undefined when it is not JSON. */
export function parseJson(bytes: Uint8Array): unknown {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return jsonTooDeep(text, LIMITS.recordJsonDepth) ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Canonical JSON, or undefined for what it refuses (undefined, a non-finite number). */
export function canonicalOf(value: unknown): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
}
