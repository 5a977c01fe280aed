import { deepFreeze } from '../base/index.ts';
import { canonicalHash, fail, LIMITS, ok, sha256Hex, type FailClass, type Failure, type FailureKind, type Outcome } from '../contract/index.ts';
import { stageInstructions } from './body.ts';
import { nameProblem } from './fields.ts';
import { parseFrontmatter, splitSkillMd, type FrontFields, type PlainManifest } from './frontmatter.ts';
import { STAGE_NAME, type CatalogStatus, type Package, type PackageOrigin, type PlainPackage, type Resource, type MethodStage } from './types.ts';

/**
 * Reads one file of a package by its path relative to the package folder:
 * its bytes, undefined if absent, or a failure saying why it was not read
 * (not a regular file, past its size limit).
 */
export type PackageReader = (relativePath: string) => Uint8Array | undefined | Failure;

function isFailure(read: Uint8Array | Failure): read is Failure {
  return !(read instanceof Uint8Array);
}

/** The format tag inside the package hash; bump it if the definition changes. */
export const PACKAGE_HASH_FORMAT = 'caplab-skill/1';

/**
 * The package hash: sha256 of the canonical JSON of
 * `{ format: "caplab-skill/1", files: [{ path, sha256 }, …] }` where `files`
 * are SKILL.md and every declared resource, sorted by path, each with the
 * sha256 of its bytes. SKILL.md carries name, version, requirements, stages
 * and instructions, so any change to what could be sent changes the hash.
 */
export function packageHash(files: readonly { readonly path: string; readonly sha256: string }[]): string {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return canonicalHash({ format: PACKAGE_HASH_FORMAT, files: sorted.map(({ path, sha256 }) => ({ path, sha256 })) });
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decode(bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Parses and checks one package folder. Refuses, naming the field, when the
 * frontmatter is invalid, `name` (the folder's when absent) differs from the
 * folder or is not a name, a stage is unknown or
 * missing, a declared resource is missing, not UTF-8, empty, or its bytes do not
 * hash to the declared sha256 (one edited byte is enough), or when one
 * resource's text contains another's (presence in a payload would be ambiguous).
 *
 * @param folder The package folder name (the last path segment).
 * @param stages The task's method stages, in order: the package must cover each, and no other.
 * @returns A deep-frozen package, or the first reason it is refused.
 */
export function parsePackage(folder: string, origin: PackageOrigin, read: PackageReader, stages: readonly MethodStage[]): Outcome<Package> {
  for (const stage of stages) if (!STAGE_NAME.test(stage)) throw new TypeError(`stage name ${JSON.stringify(stage)}: a stage name is a word that starts with a letter`);
  const where = origin.kind === 'embedded' ? `embedded package '${folder}'` : `package ${origin.path}`;
  const refuse = <K extends FailureKind>(failure: { class: FailClass<K>; kind: K; message: string; issues?: readonly string[] }) =>
    fail(failure.class, failure.kind, `${where}: ${failure.message}`, failure.issues);

  const tooLarge = (field: string, bytes: number, limit: number) =>
    refuse({ class: 'precondition', kind: 'too_large', message: `${field}: ${bytes} bytes, more than ${limit} (limit ${limit})` });

  const skillBytes = read('SKILL.md');
  if (!skillBytes) return refuse({ class: 'invalid_arguments', kind: 'missing_resource', message: 'field `SKILL.md`: file missing' });
  if (isFailure(skillBytes)) return refuse({ ...skillBytes, message: `field \`SKILL.md\`: ${skillBytes.message}` });
  if (skillBytes.byteLength > LIMITS.skillMdBytes) return tooLarge('field `SKILL.md`', skillBytes.byteLength, LIMITS.skillMdBytes);
  const skillText = decode(skillBytes);
  if (skillText === undefined) return refuse({ class: 'invalid_arguments', kind: 'bad_package', message: 'field `SKILL.md`: not valid UTF-8' });
  const split = splitSkillMd(skillText);
  if (!split.ok) return refuse(split);
  const manifest = parseFrontmatter(split.value.yaml, stages);
  if (!manifest.ok) return refuse(manifest);
  const m = manifest.value;
  const named = packageName(m.name, folder);
  if (!named.ok) return refuse(named);
  const skillSha256 = sha256Hex(skillBytes);
  if (m.kind === 'plain') {
    const plain = plainPackage(named.value, m, split.value.body, skillSha256, origin);
    return plain.ok ? plain : refuse(plain);
  }
  const instructions = stageInstructions(split.value.body, stages);
  if (!instructions.ok) return refuse(instructions);

  const resources: Resource[] = [];
  for (const declared of m.resources) {
    const field = `field \`metadata.caplab-resources\`: ${declared.path}`;
    const bytes = read(declared.path);
    if (!bytes) return refuse({ class: 'invalid_arguments', kind: 'missing_resource', message: `${field}: file missing` });
    if (isFailure(bytes)) return refuse({ ...bytes, message: `${field}: ${bytes.message}` });
    if (bytes.byteLength > LIMITS.skillReferenceBytes) return tooLarge(field, bytes.byteLength, LIMITS.skillReferenceBytes);
    const actual = sha256Hex(bytes);
    if (actual !== declared.sha256) {
      return refuse({ class: 'evidence', kind: 'hash_mismatch', message: `${field}: bytes hash to ${actual}, declared ${declared.sha256}` });
    }
    const text = decode(bytes);
    if (text === undefined) return refuse({ class: 'invalid_arguments', kind: 'bad_package', message: `${field}: not valid UTF-8` });
    if (text.trim().length === 0) return refuse({ class: 'invalid_arguments', kind: 'bad_package', message: `${field}: empty` });
    resources.push({ path: declared.path, sha256: actual, text });
  }
  for (const a of resources) {
    const other = resources.find((b) => b !== a && b.text.includes(a.text));
    if (other) {
      return refuse({ class: 'invalid_arguments', kind: 'bad_package', message: `field \`metadata.caplab-resources\`: ${a.path} is contained in ${other.path}; its presence in a request could not be told apart` });
    }
  }

  const byStage = {} as Record<MethodStage, { instructions: string; resources: readonly string[] }>;
  // Both were built from `stages`, so every stage is there.
  for (const stage of stages) byStage[stage] = { instructions: instructions.value[stage]!, resources: m.stageResources[stage]! };
  return ok(
    deepFreeze({
      kind: 'staged' as const,
      name: named.value,
      ...frontParts(m),
      version: m.version,
      requires: m.requires,
      resources,
      stages: byStage,
      hash: packageHash([{ path: 'SKILL.md', sha256: skillSha256 }, ...resources]),
      skillSha256,
      origin: structuredClone(origin),
    }),
  );
}

/**
 * The package's name: `name`, or the folder's when the frontmatter has none
 * (as Claude Code names a skill); either way it must equal the folder name
 * (Agent Skills) and be a name, so a name means one folder.
 */
function packageName(name: string | undefined, folder: string): Outcome<string> {
  if (name !== undefined && name !== folder) return fail('invalid_arguments', 'bad_package', `field \`name\`: '${name}' must equal the folder name '${folder}'`);
  const problem = nameProblem(folder);
  if (problem) return fail('invalid_arguments', 'bad_package', `field \`name\`: absent, and the folder name '${folder}' is not a name: ${problem}`);
  return ok(folder);
}

/**
 * Whether the package may be listed in a catalog, from its frontmatter: no
 * description first (nothing to list), then `disable-model-invocation`
 * (never listed), then `paths` (listed once a call touches a match).
 */
export function catalogStatus(front: Pick<FrontFields, 'description' | 'disableModelInvocation' | 'paths'>): CatalogStatus {
  if (front.description === undefined) return 'no_description';
  if (front.disableModelInvocation) return 'not_model_invocable';
  if (front.paths.length > 0) return 'held_by_paths';
  return 'listed';
}

/** The frontmatter's fields every package keeps, and its catalog status. */
function frontParts(m: FrontFields): Pick<Package, 'description' | 'whenToUse' | 'disableModelInvocation' | 'paths' | 'catalog' | 'notApplied' | 'allowedTools'> {
  return {
    description: m.description,
    whenToUse: m.whenToUse,
    disableModelInvocation: m.disableModelInvocation,
    paths: m.paths,
    catalog: catalogStatus(m),
    notApplied: m.notApplied,
    allowedTools: m.allowedTools,
  };
}

/**
 * A plain Agent Skills package: its body is its method, whole. Its hash is
 * `packageHash` of SKILL.md alone (there is nothing else it may load).
 */
function plainPackage(name: string, m: PlainManifest, body: string, skillSha256: string, origin: PackageOrigin): Outcome<PlainPackage> {
  if (body.trim().length === 0) return fail('invalid_arguments', 'bad_package', 'field `body`: empty; a plain package (no caplab-* field) sends its body as its method');
  const bytes = new TextEncoder().encode(body);
  return ok(
    deepFreeze({
      kind: 'plain' as const,
      name,
      ...frontParts(m),
      requires: [] as const,
      body: { text: body, sha256: sha256Hex(bytes), bytes: bytes.byteLength },
      hash: packageHash([{ path: 'SKILL.md', sha256: skillSha256 }]),
      skillSha256,
      origin: structuredClone(origin),
    }),
  );
}
