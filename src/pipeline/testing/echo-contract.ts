import * as v from 'valibot';
import type { Contract } from '../../contract/index.ts';

const resultSchema = v.strictObject({ echoed: v.string() });

/**
 * A read-only `echo` contract for pipeline tests, with the input schema each
 * test needs (results `{ echoed }`, 32-byte output limit, 1 s timeout).
 */
export function echoContractWith<I extends v.GenericSchema>(input: I) {
  return {
    name: 'echo',
    version: '1.0.0',
    discovery: 'Echo a word.',
    description: 'Echoes a word, repeated.',
    input,
    result: resultSchema,
    effect: 'read',
    readOnly: true,
    destructive: false,
    idempotent: true,
    concurrencySafe: true,
    openWorld: false,
    identity: 'test',
    preconditions: [],
    limits: { timeoutMs: 1000, maxResultBytes: 32 },
    completionEvidence: 'bytes observed now',
    errorClasses: ['invalid_arguments'],
  } as const satisfies Contract;
}
