import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

/** `--skills ''` would read the working directory as a folder of packages. */
export const EMPTY_SKILLS = '--skills needs a folder; an empty path would mean the working directory';

/**
 * The first flag that takes one value and was given more than once, as a
 * usage message (`--out` given twice: which one was meant?). parseArgs keeps
 * the last silently; a flag declared `multiple` may repeat.
 * @param args Arguments that already passed a strict parse with `options`.
 * @returns The message, or undefined when no such flag repeats.
 */
export function repeatedFlag(args: readonly string[], options: ParseArgsOptionsConfig): string | undefined {
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const option = options[token.name];
    if (option?.type !== 'string' || option.multiple) continue;
    if (seen.has(token.name)) return `--${token.name} given twice; it takes one value`;
    seen.add(token.name);
  }
  return undefined;
}
