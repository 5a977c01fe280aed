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

/** An expected failure, as a value. `kind` narrows the class (e.g. `sources_not_disclosed`). */
export interface Failure {
  readonly ok: false;
  readonly class: ErrorClass;
  readonly kind: string;
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

/** Creates a failure value. */
export function fail(errorClass: ErrorClass, kind: string, message: string, issues?: readonly string[]): Failure {
  return issues && issues.length > 0
    ? { ok: false, class: errorClass, kind, message, issues }
    : { ok: false, class: errorClass, kind, message };
}

/** The same failure, naming what the refusal rests on. */
export function withBasis(failure: Failure, basis: Basis): Failure {
  return { ...failure, basis };
}

/** Creates a success value. */
export function ok<T>(value: T): Success<T> {
  return { ok: true, value };
}

/**
 * Whether a failure leaves the outcome unknown: the effect may or may not have
 * happened. Such a call is never retried automatically and never reported as
 * "not executed".
 */
export function isUnknownOutcome(failure: Pick<Failure, 'class'>): boolean {
  return failure.class === 'timeout' || failure.class === 'closed';
}
