import { fail, ok, sha256Hex, type Failure, type Outcome } from '../contract/index.ts';
import type { BoundPackage, LoadedStage, Package, Requirement, MethodStage } from './types.ts';

/** A tool as the host has bound it: its model-visible name and contract version. */
export interface BoundTool {
  readonly name: string;
  readonly version: string;
}

/**
 * Binds a package to the tools this host actually exposes. Every required
 * tool must be bound at exactly the required version: the method text was
 * written against that contract, and another version may mean other rules.
 * Resource hashes were already checked when the package was parsed.
 *
 * @returns The bound package, or a `precondition` failure: the package is
 * well-formed, but this host's tool table cannot serve it.
 */
export function bindPackage<P extends Package>(pkg: P, tools: readonly BoundTool[]): Outcome<BoundPackage<P>> {
  const problems: Failure[] = [];
  for (const need of pkg.requires) {
    const field = `package '${pkg.name}': field \`metadata.caplab-requires\`: ${need.tool}@${need.version}`;
    const found = tools.filter((tool) => tool.name === need.tool);
    if (found.length === 0) problems.push(fail('precondition', 'tool_unbound', `${field}: no tool '${need.tool}' is bound`));
    else if (!found.some((tool) => tool.version === need.version)) {
      const versions = found.map((tool) => tool.version).join(', ');
      problems.push(fail('precondition', 'tool_version', `${field}: '${need.tool}' is bound at ${versions}`));
    }
  }
  const [first] = problems;
  if (first) return fail(first.class, first.kind, first.message, problems.map((p) => p.message));
  const bound: Requirement[] = pkg.requires.map((need) => ({ tool: need.tool, version: need.version }));
  return ok(Object.freeze({ package: pkg, tools: Object.freeze(bound) }));
}

/**
 * Loads one stage: its instructions (preamble + that stage's section) and only
 * the references that stage declares, in declaration order. The package was
 * parsed against the task's stages, so a stage it lacks is a programmer error.
 */
export function load(bound: BoundPackage, stage: MethodStage): LoadedStage {
  const pkg = bound.package;
  const section = pkg.stages[stage];
  if (!section) throw new Error(`package '${pkg.name}' has no stage '${stage}' (stages: ${Object.keys(pkg.stages).join(', ')})`);
  const { instructions, resources } = section;
  return Object.freeze({
    package: Object.freeze({ name: pkg.name, version: pkg.version, hash: pkg.hash }),
    stage,
    instructions,
    instructionsSha256: sha256Hex(instructions),
    resources: Object.freeze(resources.map((path) => pkg.resources.find((r) => r.path === path)!)),
  });
}
