/**
 * What `tsc` refuses about failures: a kind outside every table, a class its
 * row does not give, a refusal of a peer without its basis, an ending outside
 * the union. Not part of the project's own program (tsconfig.json excludes
 * this folder): `src/contract/kinds.test.ts` type-checks it alone, so every
 * `@ts-expect-error` below must still meet its error, and a check loosened in
 * `fail`, `refusal`, `refuse` or `exitCodeOf` fails that test.
 */
import { exitCodeOf } from '../../src/base/index.ts';
import { fail, refusal, type Failure } from '../../src/contract/index.ts';
import { refuse } from '../../src/mcp/wire/basis.ts';

export function failures(passedOn: Failure): readonly Failure[] {
  return [
    // A kind of a table, under a class its row gives: these compile.
    fail('invalid_arguments', 'not_json', 'm'),
    fail('precondition', 'too_large', 'm'),
    fail('invalid_arguments', 'too_large', 'm'),
    fail('precondition', 'sources_not_disclosed', 'm'),
    fail('invalid_arguments', 'note_id', 'm'),
    fail(passedOn.class, passedOn.kind, 'm'),
    refusal('protocol', 'framing', 'spec MUST', 'm'),
    refuse('protocol', 'tool_drift', 'm'),
    refuse('evidence', 'result_conflict', 'm'),
    // A listed JSON Schema's keyword is a kind of contract's table, a bad argument.
    fail('invalid_arguments', 'required', 'm'),
    fail('invalid_arguments', 'additionalProperties', 'm'),
    fail('invalid_arguments', 'unevaluatedProperties', 'm'),
    // @ts-expect-error a kind outside every table
    fail('invalid_arguments', 'no_such_kind', 'm'),
    // @ts-expect-error a class the kind's row does not give
    fail('business', 'not_json', 'm'),
    // @ts-expect-error a keyword's kind is a bad argument only, never a precondition
    fail('precondition', 'minLength', 'm'),
    // @ts-expect-error a keyword the table does not name is no kind (validation gives it invalid_value)
    fail('invalid_arguments', 'x-vendor', 'm'),
    // @ts-expect-error a class no row of a kind named under two gives
    fail('business', 'too_large', 'm'),
    // @ts-expect-error a refusal of a peer names its basis: `fail` cannot make one
    fail('protocol', 'framing', 'm'),
    // @ts-expect-error `refusal` takes only a kind whose row names a basis
    refusal('invalid_arguments', 'not_json', 'spec MUST', 'm'),
    // @ts-expect-error a refusal's class is its row's too
    refusal('evidence', 'framing', 'spec MUST', 'm'),
    // @ts-expect-error the strict client refuses only with a kind of its table that names a basis
    refuse('business', 'tool_error', 'm'),
  ];
}

// @ts-expect-error a failure written as a value names a kind of a table too
export const literal: Failure = { ok: false, class: 'business', kind: 'no_such_kind', message: 'm' };

// @ts-expect-error no class outside ERROR_CLASSES
export const noClass: Failure = { ok: false, class: 'network', kind: 'not_json', message: 'm' };

// @ts-expect-error an ending outside the union has no exit code
export const code = exitCodeOf({ type: 'crashed' });
