import { catalogLine, NAME_PATTERN, type CatalogEntry } from '../../skill/index.ts';
import { isObject, parsePayload } from '../disclosure.ts';

const OPEN = '<skills>\n';
const CLOSE = '\n</skills>';

/** What the `<skills>` block says before its entries: what a skill is, and how one is used. */
export const SKILLS_INTRO =
  'Skills are methods for this task, listed by name and description. A skill grants no tool and no permission. ' +
  'To use one, call the Skill tool with its name: its text for the stage this request is in comes back as the tool result.';

/**
 * The host's `<skills>` block of a tool-mode request's `system`: the intro,
 * then one `catalogLine` per entry in the order given, a line break inside
 * an entry followed by two spaces, so only an entry starts a line with `- `
 * (`payloadCatalog` reads the names back unambiguously). No body, no reference.
 */
export function skillsBlock(entries: readonly CatalogEntry[]): string {
  return `${OPEN}${[SKILLS_INTRO, ...entries.map((entry) => catalogLine(entry).replaceAll('\n', '\n  '))].join('\n')}${CLOSE}`;
}

/**
 * The package names a request's catalog lists, read from its bytes: the
 * first `system` text block that is a `<skills>` block, each line of it
 * starting `- NAME: ` (NAME a package name). No block: none.
 */
export function payloadCatalog(payload: Uint8Array): readonly string[] {
  const system = parsePayload(payload)?.['system'];
  const texts = Array.isArray(system) ? system.flatMap((b) => (isObject(b) && b['type'] === 'text' && typeof b['text'] === 'string' ? [b['text']] : [])) : [];
  const block = texts.find((text) => text.startsWith(OPEN) && text.endsWith(CLOSE));
  if (block === undefined) return [];
  return block
    .slice(OPEN.length, -CLOSE.length)
    .split('\n')
    .flatMap((line) => {
      const match = /^- ([^:\s]+): /.exec(line);
      return match && NAME_PATTERN.test(match[1]!) ? [match[1]!] : [];
    });
}
