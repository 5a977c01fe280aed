import type * as v from 'valibot';
import type { ErrorClass } from './failure.ts';
import type { ContractSchema } from './validator.ts';
import type { Completion } from './completion.ts';

/** What a tool may do to the world. */
export type Effect = 'read' | 'create' | 'update' | 'external';

/** Any valibot schema; validation always runs this, never the exported JSON Schema. */
export type AnySchema = v.GenericSchema<unknown, unknown>;

/**
 * A tool contract (SPEC F-CONTRACT): everything the host must know about a
 * capability before it lets a model ask for it. Plain readonly data. Its
 * input and result are valibot schemas (caplab's own tools) or JSON Schema
 * with its validator (a listed MCP tool's, `SchemaValidator`).
 */
export interface Contract<TInput extends ContractSchema = ContractSchema, TResult extends ContractSchema = ContractSchema> {
  readonly name: string;
  readonly version: string;
  /** Short discovery text: purpose, input gist, effect, limits. */
  readonly discovery: string;
  /** Full description shown with the call schema. */
  readonly description: string;
  readonly input: TInput;
  readonly result: TResult;
  readonly effect: Effect;
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly idempotent: boolean;
  readonly concurrencySafe: boolean;
  readonly openWorld: boolean;
  /** Who executes, with which credential. */
  readonly identity: string;
  /** Named preconditions the host checks before the handler runs. */
  readonly preconditions: readonly string[];
  readonly limits: { readonly timeoutMs: number; readonly maxResultBytes: number };
  /** What receipt or observation proves the effect happened. */
  readonly completionEvidence: string;
  readonly errorClasses: readonly ErrorClass[];
  /**
   * Top-level fields the program fills when the model leaves them out.
   * `default` in a JSON Schema is only an annotation; this is the contract's
   * own decision, and filling records both the original and actual arguments.
   * Only a valibot input has fills: a `SchemaValidator` input is bound with
   * none (its defaults stay annotations, and nothing is filled).
   */
  readonly fills?: Readonly<Record<string, unknown>>;
  /**
   * A listed tool's annotations, kept as the server gave them: untrusted
   * hints a reader may show, never what the host decides by (the fields
   * above are). Copied into the bound contract when present.
   */
  readonly hints?: Readonly<Record<string, unknown>>;
  /**
   * How the work completes (completion.ts): absent, synchronously (the
   * answer is the result); `{ mode: 'background', … }`, a receipt first, the
   * result on a query. Copied into the bound contract only when present, so
   * a synchronous contract binds as it always did.
   */
  readonly completion?: Completion;
}

/** A contract of caplab's own: valibot input and result, so a handler's input is typed from them (`defineTool`). */
export type ValibotContract = Contract<AnySchema, AnySchema>;
