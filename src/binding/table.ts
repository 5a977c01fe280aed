import { canonicalHash, type Contract, type Failure } from '../contract/index.ts';
import { deepFreeze } from '../base/index.ts';
import { tryBind, type Binding, type Implementation, type ServerIdentity } from './binding.ts';
import type { ModelTarget } from './targets.ts';

/** One tool the host offers: its contract and who implements it. */
export interface ToolEntry {
  readonly contract: Contract;
  readonly implementation: Implementation;
  /** Model-visible name; defaults to the contract name. */
  readonly tool?: string;
  readonly server?: ServerIdentity;
  readonly gaps?: readonly string[];
}

/**
 * The host's tool table for one run and one model target, frozen once
 * (SPEC F-BIND). Refused tools are kept with their reason: they are not
 * exposed, and saying so is part of the record.
 */
export interface ToolTable {
  readonly target: ModelTarget;
  /** Mapping tag: hash of target, bound ids and refusals. */
  readonly id: string;
  /** Tool names in the order the host listed them. */
  readonly tools: readonly string[];
  readonly bindings: Readonly<Record<string, Binding>>;
  readonly refused: Readonly<Record<string, Failure>>;
}

/**
 * Freezes bindings (and refusals) made elsewhere into a table, listed in
 * `order` (default: bindings, then refusals). Duplicate names or a binding
 * for another target are programmer errors and throw.
 */
export function freezeTable(
  target: ModelTarget,
  bindings: readonly Binding[],
  refused: Readonly<Record<string, Failure>> = {},
  order: readonly string[] = [...bindings.map((binding) => binding.tool), ...Object.keys(refused)],
): ToolTable {
  const bound: Record<string, Binding> = {};
  for (const binding of bindings) {
    if (binding.model.target !== target) throw new TypeError(`freezeTable: ${binding.tool} is bound for ${binding.model.target}, not ${target}`);
    if (Object.hasOwn(bound, binding.tool)) throw new TypeError(`freezeTable: duplicate tool name ${binding.tool}`);
    bound[binding.tool] = binding;
  }
  for (const name of Object.keys(refused)) {
    if (Object.hasOwn(bound, name)) throw new TypeError(`freezeTable: ${name} is both bound and refused`);
  }
  const tools = [...order];
  const listed = new Set(tools);
  if (listed.size !== tools.length || listed.size !== bindings.length + Object.keys(refused).length || ![...Object.keys(bound), ...Object.keys(refused)].every((name) => listed.has(name))) {
    throw new TypeError('freezeTable: order must list every bound and refused tool exactly once');
  }
  const ids = Object.fromEntries(bindings.map((binding) => [binding.tool, binding.id]));
  const reasons = Object.fromEntries(Object.entries(refused).map(([name, failure]) => [name, `${failure.kind}: ${failure.message}`]));
  const id = canonicalHash({ target, bindings: ids, refused: reasons });
  return deepFreeze({ target, id, tools, bindings: bound, refused: structuredClone({ ...refused }) });
}

/**
 * Binds every entry for one target and freezes the table: what a host does
 * once at the start of a run. A tool the target cannot carry is refused, not
 * dropped silently and not reshaped.
 *
 * @example
 * const table = bindTable([{ contract: updateNoteContract, implementation: { kind: 'local', version: '1' } }], 'strict');
 */
export function bindTable(entries: readonly ToolEntry[], target: ModelTarget): ToolTable {
  const bindings: Binding[] = [];
  const refused: Record<string, Failure> = {};
  const order: string[] = [];
  for (const entry of entries) {
    const bound = tryBind(entry.contract, {
      target,
      implementation: entry.implementation,
      ...(entry.tool !== undefined ? { tool: entry.tool } : {}),
      ...(entry.server !== undefined ? { server: entry.server } : {}),
      ...(entry.gaps !== undefined ? { gaps: entry.gaps } : {}),
    });
    const name = entry.tool ?? entry.contract.name;
    order.push(name);
    if (bound.ok) bindings.push(bound.value);
    else if (Object.hasOwn(refused, name)) throw new TypeError(`bindTable: duplicate tool name ${name}`);
    else refused[name] = bound;
  }
  return freezeTable(target, bindings, refused, order);
}
