/**
 * Error classes (SPEC F-RESULT). They are never merged: each says something
 * different about what happened and what may be done next.
 */
export const ERROR_CLASSES = [
  'invalid_arguments',
  'precondition',
  'permission_denied',
  'business',
  'protocol',
  'evidence',
  'spawn',
  'auth',
  'timeout',
  'closed',
] as const;

export type ErrorClass = (typeof ERROR_CLASSES)[number];

/**
 * What a refusal rests on (SPEC F-PROBE): the MCP spec's MUST, its SHOULD, or
 * a rule of caplab's own as a host — kept apart so a host requirement is never
 * passed off as the protocol's.
 */
export type Basis = 'spec MUST' | 'spec SHOULD' | 'caplab host rule';

/**
 * One row of a layer's failure table: the class a kind is raised under and,
 * where the failure refuses a peer (a server that broke the protocol), what
 * that refusal rests on; `null` for every failure of caplab's own. A kind
 * named in more than one way (`too_large`: an argument over its bound, a file
 * over its limit) lists each class.
 */
export interface KindRow {
  readonly class: ErrorClass | readonly [ErrorClass, ...ErrorClass[]];
  readonly basis: Basis | null;
}

/** A layer's failure table: every kind it raises, each with its row. */
export type KindTable = Readonly<Record<string, KindRow>>;

/**
 * Every failure table, by layer. This file names none: each layer's `kinds.ts`
 * adds its own (`declare module '../contract/index.ts'`), so contract knows
 * every kind at compile time and imports nothing upward; a task adds its table
 * the same way. A kind outside every table does not type-check.
 */
export interface FailureTables {}

type Layer = keyof FailureTables;

/** Every kind of every table. */
export type FailureKind = { [L in Layer]: keyof FailureTables[L] & string }[Layer];

type ClassesOf<R> = R extends { readonly class: infer C } ? (C extends readonly (infer E)[] ? E : C) : never;

/** Every class some table raises a kind under (`auth`: the HTTP transport's 401 and 403). */
export type FailureClass = { [L in Layer]: ClassesOf<FailureTables[L][keyof FailureTables[L]]> }[Layer] & ErrorClass;

/** The classes a kind is raised under, over every table that has it, by rows that name a basis (`refusal`) or not (`fail`). */
type ClassOf<K, Refused extends boolean> = {
  [L in Layer]: K extends keyof FailureTables[L]
    ? FailureTables[L][K] extends { readonly basis: null }
      ? Refused extends true ? never : ClassesOf<FailureTables[L][K]>
      : Refused extends true ? ClassesOf<FailureTables[L][K]> : never
    : never;
}[Layer];

/**
 * The class `fail` takes with a kind: one its table gives it. A failure passed
 * on as it came (`fail(f.class, f.kind, …)`, its kind any kind) keeps its class.
 */
export type FailClass<K extends FailureKind> = [FailureKind] extends [K] ? FailureClass : ClassOf<K, false> & FailureClass;

/** Kinds whose row names a basis: refusals of a peer, made with `refusal` (the MCP client's `refuse`). */
export type RefusalKind = { [K in FailureKind]: [ClassOf<K, true>] extends [never] ? never : K }[FailureKind];

/** The class `refusal` takes with a kind. */
export type RefusalClass<K extends RefusalKind> = ClassOf<K, true> & FailureClass;

/** An expected failure, as a value. `kind` narrows the class (e.g. `sources_not_disclosed`). */
export interface Failure {
  readonly ok: false;
  readonly class: FailureClass;
  readonly kind: FailureKind;
  readonly message: string;
  readonly issues?: readonly string[];
  /** Set where a peer is refused (the strict MCP client's protocol failures); absent elsewhere. */
  readonly basis?: Basis;
}

export interface Success<T> {
  readonly ok: true;
  readonly value: T;
}

export type Outcome<T> = Success<T> | Failure;

function failure(errorClass: FailureClass, kind: FailureKind, message: string, issues: readonly string[] | undefined): Failure {
  return issues && issues.length > 0
    ? { ok: false, class: errorClass, kind, message, issues }
    : { ok: false, class: errorClass, kind, message };
}

/**
 * Creates a failure value. The kind is one of a table's, and the class the
 * one its row gives it (checked by `tsc`, not at run time).
 */
export function fail<K extends FailureKind>(errorClass: FailClass<K>, kind: K, message: string, issues?: readonly string[]): Failure {
  return failure(errorClass, kind, message, issues);
}

/** Creates a refusal of a peer: a failure naming what it rests on (the basis its row gives). */
export function refusal<K extends RefusalKind>(errorClass: RefusalClass<K>, kind: K, basis: Basis, message: string, issues?: readonly string[]): Failure {
  return { ...failure(errorClass, kind, message, issues), basis };
}

/** Creates a success value. */
export function ok<T>(value: T): Success<T> {
  return { ok: true, value };
}

/**
 * The protocol refusals of a call the server had already accepted as a task
 * (MCP 2025-11-25): its task broke the revision after the receipt, so the
 * work may be running or done.
 */
const TASK_BROKE: ReadonlySet<string> = new Set(['task_malformed', 'task_id', 'task_status', 'task_first_status', 'task_transition']);

/**
 * Whether a failure leaves the outcome unknown: the effect may or may not have
 * happened (a deadline, a lost connection, a task that broke the revision).
 * Such a call is never retried automatically and never reported as
 * "not executed".
 */
export function isUnknownOutcome(failure: { readonly class: string; readonly kind?: string }): boolean {
  return failure.class === 'timeout' || failure.class === 'closed' || (failure.class === 'protocol' && failure.kind !== undefined && TASK_BROKE.has(failure.kind));
}
