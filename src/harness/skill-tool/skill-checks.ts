import { canonicalJson } from '../../contract/index.ts';
import type { Event, ReadRecorded, VerifyFailure } from '../../ledger/index.ts';
import { failAt } from '../../ledger/index.ts';
import { lastSkillNamed, skillResults } from '../../skill/index.ts';
import { canonicalOf, eventAt } from '../record-checks.ts';
import { checkDiscovery } from './discovery-checks.ts';
import { checkSkillTexts } from './skill-text-checks.ts';
import { payloadCatalog } from './skills-block.ts';

type RequestEvent = Event<'request'>;

/**
 * Skill tool mode, re-checked from the payload bytes: in a run whose
 * run_start says `skill_mode: "tool"`, every request's `skill_catalog` must
 * be the names its payload's `<skills>` block lists
 * (`evidence/catalog_mismatch`), and its adoption record must be the one the
 * payload's Skill results allow (`evidence/adoption_mismatch`): none without
 * a Skill result; else of the package the last one names, `via:
 * "skill_tool"`, its `tool_use_id` (when present) a non-error result
 * answering a Skill use naming that package, and present material only with
 * one. A run in direct mode records no `skill_catalog`. From format 10 on,
 * also `checkDiscovery` and `checkSkillTexts`.
 */
export function checkSkillMode(events: readonly Event[], readFile: ReadRecorded): VerifyFailure | undefined {
  const start = events.find((e) => e.type === 'run_start');
  const tool = start !== undefined && 'skill_mode' in start && start.skill_mode === 'tool';
  for (const event of events) {
    if (event.type !== 'request') continue;
    const catalog = (event as { skill_catalog?: unknown }).skill_catalog;
    if (!tool) {
      if (catalog !== undefined) return failAt('catalog_mismatch', `request ${event.request_id}: records skill_catalog, but run_start is not in skill tool mode`, eventAt(event));
      continue;
    }
    const ref = event.files.find((f) => f.role === 'request_payload');
    const bytes = ref ? readFile(ref.path) : undefined;
    if (!bytes?.ok) return failAt('catalog_mismatch', `request ${event.request_id}: has no readable payload file`, eventAt(event));
    const listed = payloadCatalog(bytes.value);
    if (canonicalOf(catalog ?? null) !== canonicalJson(listed)) {
      return failAt('catalog_mismatch', `request ${event.request_id}: skill_catalog ${JSON.stringify(catalog ?? null)}, its payload's <skills> block lists ${JSON.stringify(listed)}`, eventAt(event));
    }
    const wrong = adoptionMismatch(event, bytes.value);
    if (wrong) return failAt('adoption_mismatch', `request ${event.request_id}: ${wrong}`, eventAt(event));
  }
  // Format 10: each request's catalog re-derived from run_start, the calls and the skill_visible events; each Skill result's text against its package's identity.
  return tool ? (checkDiscovery(events) ?? checkSkillTexts(events, readFile)) : undefined;
}

/** What is wrong with a tool-mode request's adoption record against its payload's Skill results, if anything. */
function adoptionMismatch(request: RequestEvent, payload: Uint8Array): string | undefined {
  const named = lastSkillNamed(payload);
  if (!named.ok) return named.message;
  const method = request.method as { name?: unknown; via?: unknown; tool_use_id?: unknown; adopted?: unknown; instructions_present?: unknown; body_present?: unknown } | null;
  if (named.value === undefined) return method === null ? undefined : 'records an adoption, but its payload holds no Skill result';
  if (method === null || typeof method !== 'object') return `records no adoption, but its payload holds a Skill result for ${named.value}`;
  if (method.name !== named.value) return `records an adoption of ${JSON.stringify(method.name)}, but the last Skill result of its payload is ${named.value}'s`;
  if (method.via !== 'skill_tool') return `an adoption in tool mode not via: "skill_tool" (${JSON.stringify(method.via ?? null)})`;
  const claimed = method.adopted === true || method.instructions_present === true || method.body_present === true;
  if (method.tool_use_id === undefined) return claimed ? 'claims material present with no tool_use_id it came from' : undefined;
  const results = skillResults(payload, named.value);
  if (!results.ok) return results.message;
  if (!results.value.some((r) => r.toolUseId === method.tool_use_id)) {
    return `adopted via tool_use_id ${JSON.stringify(method.tool_use_id)}, which no non-error result of a Skill call naming ${named.value} in its payload answers`;
  }
  return claimed ? undefined : `names tool_use_id ${JSON.stringify(method.tool_use_id)} but claims no material present`;
}
