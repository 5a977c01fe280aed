/**
 * The output judge's worker thread (see output-judge.ts): compiles a tool's
 * outputSchema in the mode the listing compiled it (the meta-schema check
 * already passed there) and validates one structuredContent against it.
 * Started only by `new Worker`, never imported; in the binary it is an entry
 * point of its own (scripts/build.ts).
 */
import type { JudgeAnswer, JudgeRequest } from './output-judge.ts';
import { SchemaCompilers } from './probe-ajv.ts';

// This module is a worker's entry: `self` is its global scope (Bun's types leave it undeclared).
declare var self: Worker;

const compilers = new SchemaCompilers('judging');

/** One request's answer; a throw while validating (it should not happen below probeResultDepth) is an answer too. */
function judge({ id, schema, mode, value }: JudgeRequest): JudgeAnswer {
  const compiled = compilers.compile(schema, mode);
  if ('error' in compiled) return { id, error: compiled.error };
  try {
    if (compiled.validate(value)) return { id, valid: true };
    const errors = (compiled.validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
    return { id, valid: false, errors };
  } catch (error) {
    return { id, error: error instanceof Error ? error.message : String(error) };
  }
}

self.onmessage = (event: MessageEvent<JudgeRequest>) => {
  postMessage(judge(event.data));
};
