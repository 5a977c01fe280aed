import { clip } from '../base/index.ts';
import { LIMITS } from '../contract/index.ts';

/**
 * What MCP 2025-11-25 lets a server say for people, not the model: a tool's
 * `title` and `icons`, the server's `description`, `websiteUrl` and `icons`
 * (serverInfo). `caplab tools` shows them; nothing here is fetched, sent to
 * the model, recorded or part of a binding. Every string is cut at
 * `evidenceChars`; an icon is its `src`, `mimeType` and `sizes` only.
 */
export interface ShownIcon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
}

export interface ShownTool {
  readonly title?: string;
  readonly icons?: readonly ShownIcon[];
}

export interface ShownServer {
  readonly description?: string;
  readonly websiteUrl?: string;
  readonly icons?: readonly ShownIcon[];
}

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> => value !== null && typeof value === 'object' && !Array.isArray(value);
const cut = (text: string): string => clip(text, LIMITS.evidenceChars, 'head');
const text = (value: unknown): string | undefined => (typeof value === 'string' ? cut(value) : undefined);

/** The icons of a tool or server as shown: each entry with a string `src`, the rest dropped. */
function iconsOf(value: unknown): readonly ShownIcon[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const icons = value.flatMap((icon): ShownIcon[] => {
    if (!isObject(icon) || typeof icon['src'] !== 'string') return [];
    const sizes = Array.isArray(icon['sizes']) ? icon['sizes'].filter((s): s is string => typeof s === 'string').map(cut) : undefined;
    return [{ src: cut(icon['src']), ...(typeof icon['mimeType'] === 'string' ? { mimeType: cut(icon['mimeType']) } : {}), ...(sizes && sizes.length > 0 ? { sizes } : {}) }];
  });
  return icons.length > 0 ? icons : undefined;
}

/** A listed tool entry's title and icons, when it has them. */
export function shownTool(entry: unknown): ShownTool {
  if (!isObject(entry)) return {};
  const title = text(entry['title']);
  const icons = iconsOf(entry['icons']);
  return { ...(title !== undefined ? { title } : {}), ...(icons ? { icons } : {}) };
}

/** A server's description, website and icons from its serverInfo, when it has them. */
export function shownServer(serverInfo: unknown): ShownServer {
  if (!isObject(serverInfo)) return {};
  const description = text(serverInfo['description']);
  const websiteUrl = text(serverInfo['websiteUrl']);
  const icons = iconsOf(serverInfo['icons']);
  return { ...(description !== undefined ? { description } : {}), ...(websiteUrl !== undefined ? { websiteUrl } : {}), ...(icons ? { icons } : {}) };
}
