/**
 * Finds a `$ref` cycle that never descends into the instance
 * (`{"type":"object","$ref":"#"}`): validating it applies the same schemas
 * to the same value forever, and Ajv recurses on it at compile time (its ref
 * resolution follows ref-only schemas) or at validation. JSON Schema leaves
 * such a schema's behaviour undefined; probe refuses it before compiling.
 * Recursion through `properties`, `items` and the like is fine: each step
 * reaches a smaller part of the instance.
 */

type Schema = Readonly<Record<string, unknown>>;

/** Keywords whose subschemas apply to the instance itself (draft-07 and 2020-12). */
const IN_PLACE_ONE = ['not', 'if', 'then', 'else'];
const IN_PLACE_LIST = ['allOf', 'anyOf', 'oneOf'];
const IN_PLACE_MAP = ['dependentSchemas', 'dependencies'];
/** Keywords whose subschemas apply to a member, an item or a name of the instance, or only when referred to. */
const ELSEWHERE_ONE = ['items', 'additionalItems', 'contains', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const ELSEWHERE_LIST = ['items', 'prefixItems'];
const ELSEWHERE_MAP = ['properties', 'patternProperties', '$defs', 'definitions'];
/** The base of a schema without `$id`; never fetched, only resolved against. */
const DOCUMENT = 'caplab:/schema';

const isSchema = (value: unknown): value is Schema => value !== null && typeof value === 'object' && !Array.isArray(value);

/** One schema object as the walk met it. */
interface Node {
  readonly schema: Schema;
  /** Its base URI (no fragment): the innermost `$id` around it, resolved. */
  readonly base: string;
  /** Where it was met, for evidence (`#/$defs/a`). */
  readonly pointer: string;
  /** Subschemas that apply to the same instance, and `$ref`/`$dynamicRef` strings (resolved once all ids are known). */
  readonly inPlace: Schema[];
  readonly refs: string[];
}

function resolveUri(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined; // a base that cannot take a relative reference (`urn:`): Ajv reports it, if it matters
  }
}

const withoutFragment = (uri: string): string => uri.split('#')[0]!;
const escapeToken = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** The subschemas of one schema object, each marked whether it applies to the same instance. */
function subschemas(schema: Schema): { key: string; child: unknown; inPlace: boolean }[] {
  const found: { key: string; child: unknown; inPlace: boolean }[] = [];
  const one = (keys: readonly string[], inPlace: boolean) => {
    for (const key of keys) if (isSchema(schema[key])) found.push({ key, child: schema[key], inPlace });
  };
  const list = (keys: readonly string[], inPlace: boolean) => {
    for (const key of keys) {
      const value = schema[key];
      if (Array.isArray(value)) value.forEach((child, index) => found.push({ key: `${key}/${index}`, child, inPlace }));
    }
  };
  const map = (keys: readonly string[], inPlace: boolean) => {
    for (const key of keys) {
      const value = schema[key];
      if (isSchema(value)) for (const [name, child] of Object.entries(value)) found.push({ key: `${key}/${escapeToken(name)}`, child, inPlace });
    }
  };
  one(IN_PLACE_ONE, true);
  list(IN_PLACE_LIST, true);
  map(IN_PLACE_MAP, true);
  one(ELSEWHERE_ONE, false);
  list(ELSEWHERE_LIST, false);
  map(ELSEWHERE_MAP, false);
  return found.filter((entry) => isSchema(entry.child));
}

/** Every schema object under a schema, without recursion; records each base and anchor it declares. */
class Walk {
  readonly nodes = new Map<Schema, Node>();
  /** Base URI → the schema that declares it; `base#anchor` → the schema that declares the anchor. */
  readonly resources = new Map<string, Schema>();
  readonly anchors = new Map<string, Schema>();

  visit(start: Schema, startBase: string, startPointer: string): void {
    const stack = [{ schema: start, base: startBase, pointer: startPointer }];
    while (stack.length > 0) {
      const { schema, base: outer, pointer } = stack.pop()!;
      if (this.nodes.has(schema)) continue;
      let base = outer;
      const id = schema['$id'];
      if (typeof id === 'string') {
        const resolved = resolveUri(id, outer);
        if (resolved !== undefined) {
          base = withoutFragment(resolved);
          // draft-07 spells an anchor as `$id: "#name"`.
          if (resolved.includes('#') && !resolved.endsWith('#')) this.anchors.set(resolved, schema);
          else this.resources.set(base, schema);
        }
      }
      for (const key of ['$anchor', '$dynamicAnchor']) if (typeof schema[key] === 'string') this.anchors.set(`${base}#${schema[key]}`, schema);
      const node: Node = { schema, base, pointer, inPlace: [], refs: [] };
      for (const key of ['$ref', '$dynamicRef']) if (typeof schema[key] === 'string') node.refs.push(schema[key] as string);
      this.nodes.set(schema, node);
      for (const { key, child, inPlace } of subschemas(schema)) {
        if (inPlace) node.inPlace.push(child as Schema);
        stack.push({ schema: child as Schema, base, pointer: `${pointer}/${key}` });
      }
    }
  }

  /** The schema a reference names, or undefined (remote, or not there: compiling reports it). */
  resolve(ref: string, base: string): Schema | undefined {
    const uri = resolveUri(ref, base);
    if (uri === undefined) return undefined;
    const hash = uri.indexOf('#');
    const fragment = hash < 0 ? '' : decodeFragment(uri.slice(hash + 1));
    const resource = this.resources.get(withoutFragment(uri));
    if (fragment === undefined || resource === undefined) return undefined;
    if (fragment === '') return resource;
    if (!fragment.startsWith('/')) return this.anchors.get(`${withoutFragment(uri)}#${fragment}`);
    let at: unknown = resource;
    for (const token of fragment.slice(1).split('/')) {
      const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
      at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
    }
    return isSchema(at) ? at : undefined;
  }
}

function decodeFragment(fragment: string): string | undefined {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
}

/** The schemas one node applies to its own instance: in-place subschemas and resolved references. */
function edges(walk: Walk, node: Node): Schema[] {
  const targets = [...node.inPlace];
  for (const ref of node.refs) {
    const target = walk.resolve(ref, node.base);
    if (target === undefined) continue;
    // A reference into a part the walk did not reach (an unknown keyword): walk it too.
    if (!walk.nodes.has(target)) walk.visit(target, node.base, `${node.pointer}→${ref}`);
    targets.push(target);
  }
  return targets;
}

/**
 * A cycle of schemas that apply to the same instance, found by an iterative
 * depth-first search over in-place subschemas and references.
 *
 * @returns The pointers along the cycle (`#`, `#/$defs/a`, …, back to the first), or undefined when there is none.
 * @example
 * refLoop({ type: 'object', $ref: '#' }); // ['#', '#']
 * refLoop({ type: 'object', properties: { kids: { type: 'array', items: { $ref: '#' } } } }); // undefined
 */
export function refLoop(schema: Schema): string[] | undefined {
  const walk = new Walk();
  walk.visit(schema, DOCUMENT, '#');
  walk.resources.set(DOCUMENT, schema);
  const done = new Set<Schema>();
  for (const start of [...walk.nodes.keys()]) {
    if (done.has(start)) continue;
    // The path of the search, each with the edges it has left to follow.
    const path: { schema: Schema; next: Schema[] }[] = [{ schema: start, next: edges(walk, walk.nodes.get(start)!) }];
    const onPath = new Set<Schema>([start]);
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const next = top.next.pop();
      if (next === undefined) {
        path.pop();
        onPath.delete(top.schema);
        done.add(top.schema);
        continue;
      }
      if (onPath.has(next)) {
        const from = path.findIndex((step) => step.schema === next);
        return [...path.slice(from).map((step) => walk.nodes.get(step.schema)!.pointer), walk.nodes.get(next)!.pointer];
      }
      if (done.has(next)) continue;
      path.push({ schema: next, next: edges(walk, walk.nodes.get(next)!) });
      onPath.add(next);
    }
  }
  return undefined;
}
