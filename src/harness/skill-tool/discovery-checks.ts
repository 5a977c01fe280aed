import { isAbsolute, posix } from 'node:path';
import { canonicalJson } from '../../contract/index.ts';
import type { Event, VerifyFailure } from '../../ledger/index.ts';
import { failAt } from '../../ledger/index.ts';
import { catalogOrder, nestedFolders, PROJECT_SKILLS, touchedPaths } from '../../skill/index.ts';
import { effectiveInput } from '../recorded-call.ts';
import { canonicalOf, eventAt } from '../record-checks.ts';
import { toolModeStart, type SkillPackageRecord } from './package-record.ts';

type Visible = Event<'skill_visible'>;
type Found = Event<'skill_found'>;
type CallEvent = Event<'call'>;

/** A recorded touch as verify can read it: the value, and its cwd-relative path when the value is relative (the run's cwd is not recorded). */
interface RecordedTouch {
  readonly value: string;
  readonly relative: string | undefined;
}

// Relative values are resolved against a stand-in root: a value that climbs out of it is outside cwd, as the host decided.
const STAND_IN = '/\u0000cwd';

/** The paths a recorded call touched: its effective input's `file_path`, `notebook_path`, `path`, `paths`. */
function recordedTouches(call: CallEvent): readonly RecordedTouch[] {
  return touchedPaths(effectiveInput(call.arguments), STAND_IN).map((t) => ({ value: t.value, relative: isAbsolute(t.value) ? undefined : t.relative }));
}

/**
 * Whether a touch of the call is the cwd-relative `path`: a relative value
 * that resolves to it, or an absolute one that ends in `/<path>` (the run's
 * cwd differs on every machine and is not recorded, so an absolute value is
 * checked by its tail).
 */
function touchedAt(touches: readonly RecordedTouch[], path: string): boolean {
  if (path === '' || path.startsWith('/') || posix.normalize(path) !== path || path === '..' || path.startsWith('../')) return false;
  return touches.some((t) => (t.relative !== undefined ? t.relative === path : t.value.endsWith(`/${path}`)));
}

/** What the re-derivation holds while it walks the events. */
interface Walk {
  readonly nested: boolean;
  readonly visible: Set<string>;
  readonly known: Set<string>;
  readonly held: Map<string, { hash: string; globs: readonly string[] }>;
  readonly calls: Map<string, CallEvent>;
  /** Held packages a successful call's relative touch matched, not yet made visible: each with the action and path. */
  readonly owed: Map<string, { action: string; path: string }>;
}

/** Held packages the call's relative touches match that are not visible yet become owed (a `skill_visible` must follow before the next request). */
function owe(walk: Walk, call: CallEvent): void {
  if (!call.outcome.ok) return;
  const touches = recordedTouches(call);
  for (const [name, pkg] of walk.held) {
    if (walk.visible.has(name) || walk.owed.has(name)) continue;
    const hit = touches.find((t) => t.relative !== undefined && pkg.globs.some((glob) => new Bun.Glob(glob).match(t.relative!)));
    if (hit) walk.owed.set(name, { action: call.action_id, path: hit.relative! });
  }
}

/** Why a skill_visible or skill_found event's triggering call does not stand, if it does not: no earlier call, a call that did not succeed, or no touch at its path. */
function triggerProblem(walk: Walk, event: Visible | Found): string | undefined {
  const call = walk.calls.get(event.action_id);
  if (!call) return `names action ${event.action_id}, which no earlier call event is`;
  if (!call.outcome.ok) return `names action ${event.action_id}, a call that did not succeed (${call.outcome.class}/${call.outcome.kind}): a refused or failed call touches nothing`;
  if (!touchedAt(recordedTouches(call), event.path)) return `names path ${JSON.stringify(event.path)}, which action ${event.action_id} did not touch (its file_path, notebook_path, path, paths)`;
  return undefined;
}

/** Why a nested find does not stand, if it does not: nested discovery off (no `--trust`), or a folder not on the path's way up to cwd. */
function nestedProblem(walk: Walk, event: Visible | Found): string | undefined {
  if (!walk.nested) return 'is a nested find, but run_start says skill_nested is not true (nested .claude/skills/ are read only with --trust)';
  if (event.folder === undefined || !nestedFolders(event.path).includes(event.folder)) return `names folder ${JSON.stringify(event.folder ?? null)}, which is not a folder from ${JSON.stringify(event.path)}'s up to cwd`;
  return undefined;
}

/** Why a skill_visible event does not stand against the walk so far, if it does not. */
function visibleProblem(walk: Walk, event: Visible): string | undefined {
  if (walk.visible.has(event.name)) return `makes ${event.name} visible, which already is`;
  const trigger = triggerProblem(walk, event);
  if (trigger) return trigger;
  if (event.via === 'paths') {
    const held = walk.held.get(event.name);
    if (!held) return `makes ${event.name} visible by paths, but no package of run_start or a nested find is held by paths under that name`;
    if (held.hash !== event.hash) return `records hash ${event.hash} for ${event.name}, which is held with hash ${held.hash}`;
    if (event.glob === undefined || !held.globs.includes(event.glob)) return `names glob ${JSON.stringify(event.glob ?? null)}, which is not one of ${event.name}'s paths ${JSON.stringify(held.globs)}`;
    if (!new Bun.Glob(event.glob).match(event.path)) return `names glob ${JSON.stringify(event.glob)}, which does not match ${JSON.stringify(event.path)}`;
    return undefined;
  }
  const nested = nestedProblem(walk, event);
  if (nested) return nested;
  const pkg = event.package;
  if (walk.known.has(event.name)) return `finds ${event.name} nested, a name the run already has (a name means one method)`;
  if (!pkg || pkg.name !== event.name || pkg.hash !== event.hash || pkg.catalog !== 'listed' || canonicalJson(pkg.origin) !== canonicalJson(event.origin)) return `records a nested package that is not the listed package ${event.name} with hash ${event.hash} and its origin`;
  if (event.origin.kind !== 'project' || !event.origin.path.endsWith(`/${event.folder}/${PROJECT_SKILLS}/${event.name}`)) return `records origin ${JSON.stringify(event.origin)}, which is not ${event.folder}/${PROJECT_SKILLS}/${event.name}`;
  return undefined;
}

/** Why a skill_found event does not stand, if it does not; its held packages join the walk. */
function foundProblem(walk: Walk, event: Found): string | undefined {
  const problem = triggerProblem(walk, event) ?? nestedProblem(walk, event);
  if (problem) return problem;
  for (const pkg of event.held) {
    if (walk.known.has(pkg.name)) return `holds ${pkg.name}, a name the run already has`;
    walk.known.add(pkg.name);
    walk.held.set(pkg.name, { hash: pkg.hash, globs: pkg.paths });
  }
  return undefined;
}

/** The walk's start: run_start's packages (listed ones visible, held ones with their globs). */
function startWalk(packages: readonly SkillPackageRecord[], nested: boolean): Walk {
  const walk: Walk = { nested, visible: new Set(), known: new Set(), held: new Map(), calls: new Map(), owed: new Map() };
  for (const pkg of packages) {
    walk.known.add(pkg.name);
    if (pkg.catalog === 'listed') walk.visible.add(pkg.name);
    else walk.held.set(pkg.name, { hash: pkg.hash, globs: pkg.paths ?? [] });
  }
  return walk;
}

/**
 * Dynamic discovery, re-derived (format 10): each request's catalog is
 * re-derived from run_start's packages (those listed at start), the
 * `skill_visible` events before it, and — independently of those events —
 * every successful call's touched paths against the held packages' globs
 * (run_start's, and a `skill_found`'s). Refused, naming the event
 * (`evidence/catalog_mismatch`): a request whose `skill_catalog` is not that
 * catalog; a request before which a held package a successful call touched
 * was not made visible; a `skill_visible` or `skill_found` whose triggering
 * action is no earlier successful call touching its path, whose glob does
 * not match, whose nested folder is off the path's way up (or nested
 * discovery was off), or which names a package twice. A touch by an absolute
 * value is checked by its tail (the cwd is not recorded); only relative
 * touches make a package owed. A record without `skill_packages` (format 9)
 * has no discovery to re-derive.
 */
export function checkDiscovery(events: readonly Event[]): VerifyFailure | undefined {
  const start = events.find((e) => e.type === 'run_start');
  const fields = start ? toolModeStart(start) : {};
  const packages = fields.skill_packages;
  if (packages === undefined) {
    const stray = events.find((e) => e.type === 'skill_visible' || e.type === 'skill_found');
    return stray ? failAt('catalog_mismatch', `a ${stray.type} event in a run whose run_start records no skill_packages`, eventAt(stray)) : undefined;
  }
  const walk = startWalk(packages, fields.skill_nested === true);
  for (const event of events) {
    const problem = stepProblem(walk, event);
    if (problem) return failAt('catalog_mismatch', `${event.type === 'request' ? `request ${event.request_id}` : `line ${event.seq + 1} (${event.type})`}: ${problem}`, eventAt(event));
  }
  return undefined;
}

/** One event of the walk: what it adds, or why it does not stand. */
function stepProblem(walk: Walk, event: Event): string | undefined {
  switch (event.type) {
    case 'call':
      walk.calls.set(event.action_id, event);
      owe(walk, event);
      return undefined;
    case 'skill_visible': {
      const problem = visibleProblem(walk, event);
      if (problem) return problem;
      walk.visible.add(event.name);
      walk.known.add(event.name);
      walk.owed.delete(event.name);
      return undefined;
    }
    case 'skill_found': {
      const problem = foundProblem(walk, event);
      // A held package a nested folder brought may match the very call that found it.
      if (!problem) owe(walk, walk.calls.get(event.action_id)!);
      return problem;
    }
    case 'request':
      return requestProblem(walk, event);
    default:
      return undefined;
  }
}

/** A request's recorded catalog against the re-derived one, and nothing owed before it. */
function requestProblem(walk: Walk, request: Event<'request'>): string | undefined {
  const [name, owed] = [...walk.owed][0] ?? [];
  if (name !== undefined && owed) return `${name} is held by paths ${JSON.stringify(walk.held.get(name)?.globs)}, which action ${owed.action}'s touch of ${JSON.stringify(owed.path)} matched, but no skill_visible made it visible before this request`;
  const derived = catalogOrder(walk.visible);
  const recorded = (request as { skill_catalog?: unknown }).skill_catalog;
  if (canonicalOf(recorded ?? null) !== canonicalJson(derived)) return `skill_catalog ${JSON.stringify(recorded ?? null)}, but the catalog re-derived from run_start's packages, the calls' touches and the skill_visible events is ${JSON.stringify(derived)}`;
  return undefined;
}
