import { canonicalHash, fail, ok, validateArguments, type Failure, type Outcome } from '../../contract/index.ts';
import { ResultContent } from '../result-block.ts';
import type { RuntimeTool, ToolOutput } from '../tool.ts';
import { next, stop, type CallStage } from './stage.ts';

/** A handler's result the pipeline refused: why, and the hash of what was refused. */
export interface RefusedResult {
  readonly failure: Failure;
  /** sha256 of the canonical JSON of what was refused (`data`, or `content`); absent when JSON cannot carry it. */
  readonly rawSha256?: string;
}

function rawHash(data: unknown): string | undefined {
  try {
    return canonicalHash(data);
  } catch {
    return undefined;
  }
}

/**
 * Every tool's `data` (local or MCP) must match the pinned contract's result
 * schema, and its `content` must be result blocks (`ResultContent`: each a
 * known kind with exactly its fields). A mismatch from an MCP tool is the
 * server breaking the protocol (`protocol/output_invalid`); from a local
 * handler it is a bug in that handler (`business/result_invalid`). Either way
 * the model sees an error, never the unchecked result.
 *
 * @returns `undefined` when the result fits.
 */
export function checkResult(tool: RuntimeTool, output: Pick<ToolOutput, 'data' | 'content'>): RefusedResult | undefined {
  const data = validateArguments(tool.contract.result, output.data);
  const blocks = data.ok ? validateArguments(ResultContent, output.content) : data;
  const content = blocks.ok ? referencesAllowed(tool, output.content) : blocks;
  if (content.ok) return undefined;
  const [cls, kind] = tool.attributes.fromMcp ? (['protocol', 'output_invalid'] as const) : (['business', 'result_invalid'] as const);
  const what = data.ok ? 'result content is not result blocks' : 'result violates the pinned result schema';
  const failure = fail(cls, kind, `${tool.contract.name}: ${what}: ${content.message}`, content.issues);
  const rawSha256 = rawHash(data.ok ? output.content : output.data);
  return { failure, ...(rawSha256 !== undefined ? { rawSha256 } : {}) };
}

/** A tool_reference block comes only from a host tool that says it references (ToolSearch): from any other it is refused. */
function referencesAllowed(tool: RuntimeTool, content: ToolOutput['content']): Outcome<void> {
  if (tool.attributes.references && tool.binding.implementation.kind === 'host') return ok(undefined);
  const at = content.findIndex((block) => block.type === 'tool_reference');
  return at < 0 ? ok(undefined) : fail('business', 'result_invalid', `content[${at}] is a tool_reference: only the host's ToolSearch may reference a tool`);
}

/** result_validate: a refused result stops the call; the record keeps the hash of what was refused. */
export const resultValidate: CallStage<'tool' | 'outcome'> = {
  name: 'result_validate',
  needs: ['tool', 'outcome'],
  run(state) {
    const refused = checkResult(state.tool, state.outcome.value);
    return refused ? stop(refused.failure, { rawResultSha256: refused.rawSha256 }) : next();
  },
};
