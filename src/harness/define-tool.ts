import type * as v from 'valibot';
import { bind } from '../binding/index.ts';
import type { Failure, Outcome, ValibotContract } from '../contract/index.ts';
import { attributesOf, type CallContext, type RuntimeTool, type ToolAttributes, type ToolOutput } from '../pipeline/index.ts';
import type { LocalTool } from './tools.ts';

/** A handler's input: what the contract's input schema gives once it has validated the call's arguments. */
export type ToolInput<C extends ValibotContract> = v.InferOutput<C['input']>;

/** What a handler returns on success, its `data` typed as the contract's result schema takes it. */
export type TypedOutput<C extends ValibotContract> = Omit<ToolOutput, 'data'> & { readonly data: v.InferInput<C['result']> };

/** A local tool: its contract, its implementation's version, and a handler typed by the contract. */
export interface ToolDefinition<C extends ValibotContract> {
  readonly contract: C;
  /** The implementation's version, part of the binding (a new handler should say so with a new version). */
  readonly version: string;
  /** Runtime attributes beyond what the contract gives (`attributesOf`). */
  readonly attributes?: Partial<ToolAttributes>;
  /** Tool-specific validation and preconditions, after the schema, before hooks. */
  readonly check?: (input: ToolInput<C>, context: CallContext) => Failure | undefined;
  /** The only place with side effects; the pipeline calls it only with input its schema accepted. */
  readonly handler: (input: ToolInput<C>, context: CallContext) => Promise<Outcome<TypedOutput<C>>>;
}

/**
 * Defines a local tool from a valibot contract and a handler whose `input` is
 * typed from the contract's input schema (`v.InferOutput`): a field the schema
 * does not have is a tsc error, not a runtime surprise. It is bound as
 * implementation kind `local`, and what it returns is what `localProvider`
 * takes, so a task's `tools(run)` is `[localProvider([tool, …])]`.
 *
 * @example
 * const echo = defineTool({ contract: echoContract, version: 'echo/1', handler: async ({ word }) => ok({ data: { echoed: word }, content: [textBlock(word)], evidence: 'bytes observed now' }) });
 * const tools = () => [localProvider([echo])];
 */
export function defineTool<const C extends ValibotContract>(definition: ToolDefinition<C>): LocalTool {
  const { contract, check, handler } = definition;
  const implementation = { kind: 'local', version: definition.version } as const;
  // The validate stage hands on only what the input schema accepted (a hook's rewrite is validated again), so the input is its output.
  const typed = (input: unknown): ToolInput<C> => input as ToolInput<C>;
  return {
    entry: { contract, implementation },
    make: function makeTool(): RuntimeTool {
      return {
        contract,
        binding: bind(contract, { implementation }),
        attributes: attributesOf(contract, definition.attributes),
        ...(check ? { check: (input: unknown, context: CallContext) => check(typed(input), context) } : {}),
        handler: (input, context) => handler(typed(input), context),
      };
    },
  };
}
