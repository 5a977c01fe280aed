import { checkJson, LIMITS } from '../../contract/index.ts';
import type { ValidateFunction } from 'ajv';
import type { CompileMode, Dialect, SchemaCompilers } from './probe-ajv.ts';
import { excerpt, finding, type ProbeFinding } from './probe-finding.ts';
import type { VersionProfile } from '../client/index.ts';
import { refLoop } from './schema-ref-loop.ts';

/** What compiling one tool schema gave: how it compiled (what judging needs) and the validator, and findings either way. */
export interface CompiledSchema {
  readonly mode?: CompileMode;
  /** The compiled validator (with `mode`), of the compilers' purpose: with messages unless they are listing's. */
  readonly validate?: ValidateFunction;
  readonly findings: readonly ProbeFinding[];
}

/** Which of a listed tool's schemas. */
export type Which = 'inputSchema' | 'outputSchema';

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/** Every `$ref` in a schema that does not point inside it (no leading `#`, no matching `$id`); an iterative walk. */
export function remoteRefs(schema: unknown): string[] {
  const refs: string[] = [];
  const ids = new Set<string>();
  const stack = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
    } else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if ((key === '$ref' || key === '$dynamicRef') && typeof value === 'string') refs.push(value);
        else if (key === '$id' && typeof value === 'string') ids.add(value);
        else stack.push(value);
      }
    }
  }
  return refs.filter((ref) => !ref.startsWith('#') && !ids.has(ref.split('#')[0]!));
}

/**
 * What must hold before Ajv sees a schema, since Ajv recurses over it and
 * over its references: nesting within `probeSchemaDepth`, numbers JSON can
 * carry, nothing fetched, no `$ref` cycle that stays on the same instance.
 */
export function refusedBeforeCompile(schema: object, which: Which, tool: string): ProbeFinding | undefined {
  const bounded = checkJson(schema, { maxDepth: LIMITS.probeSchemaDepth, maxBytes: LIMITS.probeSchemaBytes });
  if (!bounded.ok && bounded.kind === 'too_large') {
    // Ajv compiles on probe's own thread and cannot be stopped part way: its cost is bounded by the schema's size.
    return finding('protocol', 'schema_too_large', 'caplab host rule', `${which} is larger than ${LIMITS.probeSchemaBytes} bytes as canonical JSON (probeSchemaBytes); not compiled`, { tool, evidence: bounded.message });
  }
  if (!bounded.ok && bounded.kind === 'too_deep') {
    return finding('protocol', 'schema_too_deep', 'caplab host rule', `${which} nests deeper than ${LIMITS.probeSchemaDepth} levels (probeSchemaDepth); not compiled`, { tool, evidence: bounded.message });
  }
  if (!bounded.ok) {
    return finding('protocol', 'non_finite_number', 'caplab host rule', `${which} holds a number JSON cannot carry (it parses as Infinity); not compiled`, { tool, evidence: bounded.message });
  }
  const remote = remoteRefs(schema);
  if (remote.length > 0) {
    return finding('protocol', 'remote_ref', 'caplab host rule', `${which} refers outside itself; probe never fetches a schema`, { tool, evidence: remote.slice(0, 3).join(', ') });
  }
  const loop = refLoop(schema as Readonly<Record<string, unknown>>);
  if (loop) {
    return finding('protocol', 'schema_ref_loop', 'caplab host rule', `${which} has a $ref cycle that never descends into the instance (JSON Schema leaves it undefined; validating would not end); not compiled`, { tool, evidence: excerpt(loop.join(' → ')) });
  }
  return undefined;
}

/** The dialects to try, in order, or undefined for a `$schema` probe does not read. */
function dialectsOf(schema: object, profile: VersionProfile): Dialect[] | undefined {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined) return profile.defaultDialect === '2020-12' ? ['2020-12'] : ['2020-12', 'draft-07'];
  if (typeof declared === 'string' && DRAFT_07.test(declared)) return ['draft-07'];
  if (typeof declared === 'string' && DRAFT_2020.test(declared)) return ['2020-12'];
  return undefined;
}

/** Why a schema compiled only leniently, from the strict pass's error. */
function leniencyFinding(error: string, which: Which, tool: string, dialect: Dialect): ProbeFinding {
  if (/unknown keyword/.test(error)) return finding('protocol', 'schema_unknown_keyword', 'caplab host rule', `${which}: a keyword ${dialect} does not define (not checked)`, { tool, evidence: error });
  if (/unknown format/.test(error)) return finding('protocol', 'schema_unknown_format', 'caplab host rule', `${which}: a format probe does not know (not checked)`, { tool, evidence: error });
  return finding('protocol', 'schema_strict', 'caplab host rule', `${which} compiles only leniently`, { tool, evidence: error });
}

/**
 * Compiles a tool's inputSchema or outputSchema with Ajv, never fetching
 * anything, after the checks Ajv needs first (depth, numbers, remote `$ref`,
 * `$ref` loops: each a finding, the schema not compiled). draft-07 and
 * 2020-12 are read as declared; a schema without `$schema` as the revision
 * says (2020-12 for 2025-11-25), otherwise leniently (2020-12, then
 * draft-07). Unknown keywords and formats are findings of their own; the
 * schema is then compiled without them. The validator is returned; probe
 * drops it (judging a call compiles the outputSchema again, in the same mode,
 * in a worker where it can be stopped), a listed tool's contract keeps it.
 */
export function compileToolSchema(schema: object, which: Which, tool: string, profile: VersionProfile, compilers: SchemaCompilers): CompiledSchema {
  const refused = refusedBeforeCompile(schema, which, tool);
  return refused ? { findings: [refused] } : compileChecked(schema, which, tool, profile, compilers);
}

/** `compileToolSchema` after its checks: a schema `refusedBeforeCompile` passed, compiled in the dialects it may be read in. */
export function compileChecked(schema: object, which: Which, tool: string, profile: VersionProfile, compilers: SchemaCompilers): CompiledSchema {
  const dialects = dialectsOf(schema, profile);
  if (!dialects) {
    const declared = (schema as { $schema?: unknown }).$schema;
    return { findings: [finding('protocol', 'schema_dialect', 'caplab host rule', `${which} declares a dialect probe does not read (draft-07 and 2020-12 only)`, { tool, evidence: excerpt(declared) })] };
  }
  let lastError = '';
  for (const dialect of dialects) {
    const strict = compilers.compile(schema, { dialect, strict: true });
    if ('validate' in strict) return { mode: { dialect, strict: true }, validate: strict.validate, findings: [] };
    const loose = compilers.compile(schema, { dialect, strict: false });
    if ('error' in loose) {
      lastError = loose.error;
      continue;
    }
    return { mode: { dialect, strict: false }, validate: loose.validate, findings: [leniencyFinding(strict.error, which, tool, dialect)] };
  }
  return { findings: [finding('protocol', 'schema_invalid', 'spec MUST', `${which} does not compile as JSON Schema (${dialects.join(' or ')})`, { tool, evidence: lastError.slice(0, 200) })] };
}
