import * as v from 'valibot';
import { canonicalJson, jsonTooDeep, LIMITS, sha256Hex } from '../contract/index.ts';
import type { Event, ReadRecorded, VerifyFailure } from '../ledger/index.ts';
import { failAt } from '../ledger/index.ts';
import { disclosedSources, sourceReads, type ReadCall, type ReadTool } from './disclosure.ts';
import { exitOf } from './ending.ts';
import type { Snapshot } from './task.ts';

/** Where an event is, for a failure that names it. */
export const eventAt = (event: { readonly seq: number; readonly type: string }) => ({ file: 'ledger.jsonl', line: event.seq + 1, seq: event.seq, type: event.type });

/** A call event as the record checks read it. */
export interface CheckedCall {
  readonly event: Event<'call'>;
  readonly requestId: string;
  readonly toolCallId: string;
  readonly name: string;
  readonly arguments: ReadCall['arguments'];
  readonly ok: boolean;
  /** A failed call's class and kind. */
  readonly failure?: { readonly class: string; readonly kind: string };
  /** The tool_result's blocks as the call recorded them: the tool's text, then each hook block. */
  readonly blockHashes: readonly string[];
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
  content: v.union([v.string(), v.array(v.looseObject({ type: v.literal('text'), text: v.string() }))]),
});

/** What the record checks are given: the parsed events, verified files, the task's read tool and the rebuilt snapshot. */
export interface RecordFacts {
  readonly events: readonly Event[];
  readonly calls: readonly CheckedCall[];
  /** Each response event's tool_use blocks, in order (from its verified response file). */
  readonly uses: ReadonlyMap<Event, readonly RecordedUse[]>;
  readonly readFile: ReadRecorded;
  readonly snapshot: Snapshot;
  readonly read: ReadTool | undefined;
}

/**
 * The record's facts must tell one story (issue W1): every tool_use of a
 * response has exactly one call event, in order, naming that response's
 * request and recorded after the response and before the next request (a run
 * that did not complete may stop part way through its last response's calls);
 * every tool_result a request payload carries answers, in order, a call
 * recorded before that request, with the error flag and block hashes it
 * recorded; every request's `disclosed_sources` is what disclosure re-computes
 * from its payload and the calls before it; `run_end`'s counts are the
 * events'. (That no shape newer than the seal's format appears, `verify` has
 * checked with the event schemas.)
 */
export function checkRecord(facts: RecordFacts): VerifyFailure | undefined {
  return checkCallOrder(facts) ?? checkPayloads(facts) ?? checkCounts(facts);
}

/** Walks the ledger in order, matching each response's tool_uses to the call events after it. */
function checkCallOrder({ events, calls, uses }: RecordFacts): VerifyFailure | undefined {
  const byEvent = new Map<Event, CheckedCall>(calls.map((call) => [call.event, call]));
  const completed = events.find((e) => e.type === 'run_end')?.ending === 'completed';
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

/** Each request payload's tool_results against the calls before it, and its disclosure re-computed. */
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
    const recomputed = disclosedSources(bytes.value, facts.snapshot, sourceReads(facts.read, before));
    if (canonicalJson(recomputed) !== canonicalJson(request.disclosed_sources)) {
      return failAt('disclosure_mismatch', `request ${request.request_id} records disclosed [${request.disclosed_sources.join(', ')}], its payload and the calls before it disclose [${recomputed.join(', ')}]`, eventAt(request));
    }
  }
  return undefined;
}

/** Why a payload's tool_results are not the recorded calls' answers, in order; undefined when they are. */
function resultMismatch(results: readonly { id: string; isError: boolean; hashes: string[] }[], calls: readonly CheckedCall[]): string | undefined {
  if (results.length !== calls.length) return `its payload carries ${results.length} tool_results, ${calls.length} calls were recorded before it`;
  for (const [i, result] of results.entries()) {
    const call = calls[i]!;
    if (result.id !== call.toolCallId) return `tool_result ${i + 1} answers ${result.id}, the call recorded in its place is ${call.toolCallId}`;
    if (result.isError === call.ok) return `the tool_result for ${call.toolCallId} says is_error=${result.isError}, the call recorded ok=${call.ok}`;
    if (canonicalJson(result.hashes) !== canonicalJson(call.blockHashes)) return `the tool_result for ${call.toolCallId} is not the text (and hook blocks) the call recorded`;
  }
  return undefined;
}

/** The tool_result blocks of a payload's user messages, in order; undefined when it is no payload. */
function payloadResults(bytes: Uint8Array): { id: string; isError: boolean; hashes: string[] }[] | undefined {
  const payload = parseJson(bytes) as { messages?: unknown } | undefined;
  if (!payload || !Array.isArray(payload.messages)) return undefined;
  const results: { id: string; isError: boolean; hashes: string[] }[] = [];
  for (const message of payload.messages) {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    if (role !== 'user' || !Array.isArray(content)) continue;
    for (const block of content) {
      if ((block as { type?: unknown })?.type !== 'tool_result') continue;
      const result = v.safeParse(ResultShape, block);
      if (!result.success) return undefined;
      const { tool_use_id: id, is_error: isError, content: blocks } = result.output;
      const texts = typeof blocks === 'string' ? [blocks] : blocks.map((b) => b.text);
      results.push({ id, isError: isError === true, hashes: texts.map((text) => sha256Hex(text)) });
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
    end.ending === 'completed' ? exitOf(calls.flatMap((c) => (c.failure ? [c.failure] : [])), end.accepted)
    : end.ending === 'interrupted' ? (end.cause?.startsWith('SIGINT') ? 130 : end.cause?.startsWith('SIGTERM') ? 143 : undefined)
    : undefined;
  if (expected === undefined || expected === end.exit_code) return undefined;
  return failAt('count_mismatch', `run_end records exit ${end.exit_code}; its calls and ending give ${expected}`, eventAt(end));
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
