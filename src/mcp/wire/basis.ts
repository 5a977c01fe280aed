import { refusal, type Basis, type Failure, type RefusalClass } from '../../contract/index.ts';
import { MCP_KINDS } from './kinds.ts';

/** A kind of the strict client's refusals: a row of `MCP_KINDS` that names a basis. */
export type StrictKind = { [K in keyof typeof MCP_KINDS]: (typeof MCP_KINDS)[K]['basis'] extends null ? never : K }[keyof typeof MCP_KINDS];

/** What each refusal of the strict client rests on (SPEC F-PROBE: every refusal names its basis), read from `MCP_KINDS`. */
export const STRICT_CLIENT_BASIS: Readonly<Record<StrictKind, Basis>> = Object.fromEntries(
  Object.entries(MCP_KINDS).flatMap(([kind, row]) => (row.basis === null ? [] : [[kind, row.basis]])),
) as Record<StrictKind, Basis>;

/** A refusal of the strict client: a failure value that names its basis from the table. */
export function refuse<K extends StrictKind>(errorClass: RefusalClass<K>, kind: K, message: string, issues?: readonly string[]): Failure {
  return refusal(errorClass, kind, STRICT_CLIENT_BASIS[kind], message, issues);
}
