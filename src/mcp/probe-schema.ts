import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { excerpt, finding, type ProbeFinding } from './probe-finding.ts';
import type { VersionProfile } from './probe-versions.ts';

/** What compiling one tool schema gave: a validator when it compiles, and findings either way. */
export interface CompiledSchema {
  readonly validate?: ValidateFunction;
  readonly dialect?: 'draft-07' | '2020-12';
  readonly findings: readonly ProbeFinding[];
}

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/** Every `$ref` in a schema that does not point inside it (no leading `#`, no matching `$id`). */
export function remoteRefs(schema: unknown): string[] {
  const refs: string[] = [];
  const ids = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if ((key === '$ref' || key === '$dynamicRef') && typeof value === 'string') refs.push(value);
      else if (key === '$id' && typeof value === 'string') ids.add(value);
      else walk(value);
    }
  };
  walk(schema);
  return refs.filter((ref) => !ref.startsWith('#') && !ids.has(ref.split('#')[0]!));
}

function newAjv(dialect: 'draft-07' | '2020-12', strict: boolean): Ajv {
  // strictSchema alone: unknown keywords and formats are errors in the strict pass; types, tuples
  // and `required` style are left to the schema author (JSON Schema allows them).
  const options = { strictSchema: strict, strictTypes: false, strictTuples: false, strictRequired: false, allErrors: true, logger: false as const };
  const ajv = dialect === '2020-12' ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv);
  return ajv;
}

function tryCompile(schema: object, dialect: 'draft-07' | '2020-12', strict: boolean): { validate?: ValidateFunction; error?: string } {
  try {
    return { validate: newAjv(dialect, strict).compile(schema) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * Compiles a tool's inputSchema or outputSchema with Ajv, never fetching
 * anything: a remote `$ref` is a finding and the schema is not compiled.
 * draft-07 and 2020-12 are read as declared; a schema without `$schema` as
 * the revision says (2020-12 for 2025-11-25), otherwise leniently (2020-12,
 * then draft-07). Unknown keywords and formats are findings of their own;
 * the schema is then compiled without them.
 */
export function compileToolSchema(schema: object, which: 'inputSchema' | 'outputSchema', tool: string, profile: VersionProfile): CompiledSchema {
  const findings: ProbeFinding[] = [];
  const remote = remoteRefs(schema);
  if (remote.length > 0) {
    return { findings: [finding('protocol', 'remote_ref', 'caplab host rule', `${which} refers outside itself; probe never fetches a schema`, { tool, evidence: remote.slice(0, 3).join(', ') })] };
  }
  const declared = (schema as { $schema?: unknown }).$schema;
  let dialects: ('draft-07' | '2020-12')[];
  if (declared === undefined) dialects = profile.defaultDialect === '2020-12' ? ['2020-12'] : ['2020-12', 'draft-07'];
  else if (typeof declared === 'string' && DRAFT_07.test(declared)) dialects = ['draft-07'];
  else if (typeof declared === 'string' && DRAFT_2020.test(declared)) dialects = ['2020-12'];
  else {
    return { findings: [finding('protocol', 'schema_dialect', 'caplab host rule', `${which} declares a dialect probe does not read (draft-07 and 2020-12 only)`, { tool, evidence: excerpt(declared) })] };
  }
  let lastError = '';
  for (const dialect of dialects) {
    const strict = tryCompile(schema, dialect, true);
    if (strict.validate) return { validate: strict.validate, dialect, findings };
    const loose = tryCompile(schema, dialect, false);
    if (!loose.validate) {
      lastError = loose.error ?? '';
      continue;
    }
    const error = strict.error ?? '';
    if (/unknown keyword/.test(error)) findings.push(finding('protocol', 'schema_unknown_keyword', 'caplab host rule', `${which}: a keyword ${dialect} does not define (not checked)`, { tool, evidence: error }));
    else if (/unknown format/.test(error)) findings.push(finding('protocol', 'schema_unknown_format', 'caplab host rule', `${which}: a format probe does not know (not checked)`, { tool, evidence: error }));
    else findings.push(finding('protocol', 'schema_strict', 'caplab host rule', `${which} compiles only leniently`, { tool, evidence: error }));
    return { validate: loose.validate, dialect, findings };
  }
  return { findings: [finding('protocol', 'schema_invalid', 'spec MUST', `${which} does not compile as JSON Schema (${dialects.join(' or ')})`, { tool, evidence: lastError.slice(0, 200) })] };
}
