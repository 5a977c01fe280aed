/**
 * What `tsc` refuses about a tool made with `defineTool`: a handler (or check)
 * that reads a field its contract's input schema does not have, takes it as
 * another type, or returns data its result schema would not take. Not part of
 * the project's own program (tsconfig.json excludes this folder):
 * `src/harness/define-tool.test.ts` type-checks it alone, so every
 * `@ts-expect-error` below must still meet its error, and loosening the
 * handler's typing (an `any` or `unknown` input) fails that test.
 */
import * as v from 'valibot';
import { ok } from '../../src/contract/index.ts';
import { defineTool } from '../../src/harness/index.ts';
import { textBlock } from '../../src/pipeline/index.ts';
import { echoContractWith } from '../../src/pipeline/testing/echo-contract.ts';

const contract = echoContractWith(v.strictObject({ word: v.string(), times: v.optional(v.number()) }));
const content = [textBlock('x')];
const evidence = 'bytes observed now';

// The fields the schema gives, as the types it gives them: this compiles.
export const fine = defineTool({
  contract,
  version: 'echo/1',
  check: (input) => (input.word === '' ? undefined : undefined),
  handler: async ({ word, times }) => ok({ data: { echoed: word.repeat(times ?? 1) }, content, evidence }),
});

export const wrongField = defineTool({
  contract,
  version: 'echo/1',
  // @ts-expect-error a field the input schema does not have
  handler: async ({ wrd }) => ok({ data: { echoed: String(wrd) }, content, evidence }),
});

export const wrongType = defineTool({
  contract,
  version: 'echo/1',
  handler: async (input) => {
    // @ts-expect-error `word` is a string, not a number
    const doubled: number = input.word * 2;
    return ok({ data: { echoed: String(doubled) }, content, evidence });
  },
});

export const optionalUnchecked = defineTool({
  contract,
  version: 'echo/1',
  // @ts-expect-error `times` is optional: it may be undefined
  handler: async ({ times }) => ok({ data: { echoed: times.toFixed() }, content, evidence }),
});

export const wrongCheck = defineTool({
  contract,
  version: 'echo/1',
  // @ts-expect-error the check's input is the contract's too
  check: (input) => (input.nope ? undefined : undefined),
  handler: async ({ word }) => ok({ data: { echoed: word }, content, evidence }),
});

export const wrongData = defineTool({
  contract,
  version: 'echo/1',
  // @ts-expect-error data the result schema `{ echoed: string }` would not take
  handler: async ({ word }) => ok({ data: { echo: word }, content, evidence }),
});
