import type { ErrorClass, Failure } from '../contract/index.ts';
import { jsonPrefix } from './json-prefix.ts';
import type { Basis } from './probe-versions.ts';

/** One thing probe found: a failure value that also names its basis, and where it can, the tool and the evidence. */
export interface ProbeFinding {
  readonly class: ErrorClass;
  readonly kind: string;
  readonly basis: Basis;
  readonly message: string;
  readonly tool?: string;
  /** A short excerpt of what the server sent (names, values, error text), never a whole schema. */
  readonly evidence?: string;
}

export function finding(
  errorClass: ErrorClass,
  kind: string,
  basis: Basis,
  message: string,
  where: { readonly tool?: string; readonly evidence?: string } = {},
): ProbeFinding {
  return {
    class: errorClass,
    kind,
    basis,
    message,
    ...(where.tool !== undefined ? { tool: where.tool } : {}),
    ...(where.evidence !== undefined ? { evidence: where.evidence } : {}),
  };
}

/**
 * A failure the connection or the handshake produced, as a finding. A strict
 * client refusal names its own basis (src/mcp/basis.ts); anything else — a
 * deadline, a lost connection — is the host's own limit.
 */
export function fromFailure(failure: Failure, tool?: string): ProbeFinding {
  const basis: Basis = failure.basis ?? 'caplab host rule';
  const evidence = failure.issues && failure.issues.length > 0 ? failure.issues.slice(0, 5).join('; ') : undefined;
  return finding(failure.class, failure.kind, basis, failure.message, { ...(tool !== undefined ? { tool } : {}), ...(evidence ? { evidence } : {}) });
}

/** A value shortened for evidence: its JSON text, cut after `max` characters, built without recursion (see `jsonPrefix`). */
export function excerpt(value: unknown, max = 120): string {
  const text = jsonPrefix(value, max) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
