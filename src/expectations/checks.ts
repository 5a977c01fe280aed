import { clipChars, inert } from '../base/index.ts';
import { canonicalJson, LIMITS } from '../contract/index.ts';
import type { AcceptanceCheck } from '../harness/index.ts';
import type { CallExpectation, Expectations } from '../harness/index.ts';
import { resolvePointer } from './pointer.ts';

/** The schema a call's data is checked against for `output_valid`: its binding's result schema, read as its server's revision reads a schema. */
export interface ResultSchema {
  readonly schema: object;
  readonly protocolVersion: string;
}

/** One call as the checks read it, live or recorded: its id and tool, and its outcome (with the data a success returned). */
export interface ObservedCall {
  readonly id: string;
  readonly name: string;
  readonly outcome: { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly class: string; readonly kind: string };
  /** The result schema of the binding it ran under (absent: it resolved to none). */
  readonly resultSchema?: ResultSchema;
}

/** What a run did, as the checks read it: its calls in order, and why its loop stopped. */
export interface Observed {
  readonly calls: readonly ObservedCall[];
  readonly stop: string;
}

/** Validates data against a result schema: undefined when it conforms, else the first error (Ajv's, or why no validator could be made). */
export type ValidateOutput = (schema: ResultSchema, data: unknown) => string | undefined;

const cut = (text: string): string => clipChars(text, LIMITS.evidenceChars);
const shown = (value: unknown): string => cut(canonicalJson(value));
const failed = (call: ObservedCall): string => (call.outcome.ok ? 'ok' : `${call.outcome.class}/${call.outcome.kind}`);

/**
 * The expectations' checks, in the scenario's order: per expected call id
 * its outcome (`ok` or `error`), each pointer's value, `output_valid`; then
 * the end (`calls`, `stop`). Each verdict is computed from what was observed
 * (the same function live and in `verify`), never from the run's word; a
 * call that was not made fails every check of its id.
 */
export function expectationChecks(expect: Expectations, observed: Observed, validate: ValidateOutput): AcceptanceCheck[] {
  const checks: AcceptanceCheck[] = [];
  // Ids, kinds and pointers are the scenario's text, a server's in Ajv's messages: each check reads inert wherever it is shown (terminal, JUnit).
  const add = (id: string, object: string, condition: string, pass: boolean, evidence: string): void => {
    checks.push({ id: inert(id), object: inert(object), condition: inert(condition), evidence: inert(evidence), verdict: pass ? 'pass' : 'fail' });
  };
  for (const [id, expected] of Object.entries(expect.calls)) {
    const made = observed.calls.filter((call) => call.id === id);
    callChecks(id, expected, made.length === 1 ? made[0] : undefined, made.length, validate, add);
  }
  const end = expect.end;
  if (end?.calls !== undefined) add('end:calls', 'the run', `${end.calls} call(s) made`, observed.calls.length === end.calls, `${observed.calls.length} call(s)`);
  if (end?.stop !== undefined) add('end:stop', 'the run', `the loop stopped: ${end.stop}`, observed.stop === end.stop, observed.stop);
  return checks;
}

type Add = (id: string, object: string, condition: string, pass: boolean, evidence: string) => void;

/** One call id's checks: its outcome, then its values and output_valid (which need a success to pass). */
function callChecks(id: string, expected: CallExpectation, call: ObservedCall | undefined, made: number, validate: ValidateOutput, add: Add): void {
  const object = `call ${id}${call ? ` (${call.name})` : ''}`;
  const absent = made === 0 ? 'absent: no call with this id was made' : `${made} calls with this id`;
  if (expected.ok) add(`call:${id}:ok`, object, 'the call succeeded', call?.outcome.ok === true, call ? failed(call) : absent);
  if (expected.error) {
    const want = expected.error;
    const matches = call !== undefined && !call.outcome.ok && call.outcome.class === want.class && (want.kind === undefined || call.outcome.kind === want.kind);
    add(`call:${id}:error`, object, `the call failed ${want.class}${want.kind !== undefined ? `/${want.kind}` : ''}`, matches, call ? failed(call) : absent);
  }
  for (const [pointer, value] of Object.entries(expected.values ?? {})) {
    const condition = `data at ${JSON.stringify(pointer)} is ${shown(value)}`;
    if (!call || !call.outcome.ok) {
      add(`call:${id}:${pointer}`, object, condition, false, call ? `the call failed: ${failed(call)}` : absent);
      continue;
    }
    const found = resolvePointer(call.outcome.data, pointer);
    add(`call:${id}:${pointer}`, object, condition, found.found && canonicalJson(found.value) === canonicalJson(value), found.found ? shown(found.value) : 'absent');
  }
  if (expected.output_valid) {
    const condition = "the call's data validates against its tool's outputSchema";
    if (!call || !call.outcome.ok) add(`call:${id}:output_valid`, object, condition, false, call ? `the call failed: ${failed(call)}` : absent);
    else if (!call.resultSchema) add(`call:${id}:output_valid`, object, condition, false, 'no binding: no schema to validate against');
    else {
      const error = validate(call.resultSchema, call.outcome.data);
      add(`call:${id}:output_valid`, object, condition, error === undefined, error === undefined ? 'valid' : cut(error));
    }
  }
}
