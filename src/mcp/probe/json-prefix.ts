/** A container being written: its remaining members, in JSON.stringify's order. */
interface Frame {
  readonly container: Readonly<Record<string, unknown>> | readonly unknown[];
  /** An object's keys whose values JSON can write; undefined for an array. */
  readonly keys: readonly string[] | undefined;
  readonly close: string;
  index: number;
}

/** Whether JSON.stringify writes this value as an object member (it drops undefined and functions). */
const writable = (value: unknown): boolean => value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';

/** One value's opening text: a scalar whole (a string cut to `budget` characters first), or a container's bracket, its frame pushed. */
function open(value: unknown, frames: Frame[], budget: number): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > budget ? value.slice(0, budget) : value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value !== 'object') return 'null'; // in an array, as JSON.stringify writes it
  if (Array.isArray(value)) {
    frames.push({ container: value, keys: undefined, close: ']', index: 0 });
    return '[';
  }
  const object = value as Record<string, unknown>;
  frames.push({ container: object, keys: Object.keys(object).filter((key) => writable(object[key])), close: '}', index: 0 });
  return '{';
}

/**
 * The start of a value's JSON text as JSON.stringify writes it, built without
 * recursion and only until it is longer than `max` characters: a value nested
 * deeper than the stack, or a megabyte long, costs about what its first `max`
 * characters cost (an object's keys are listed once). Server data reaches
 * findings through this, never through JSON.stringify itself.
 *
 * @returns The text, longer than `max` exactly when the whole would be; undefined where JSON.stringify gives undefined.
 * @example
 * jsonPrefix({ a: [1, 'x'] }, 120); // '{"a":[1,"x"]}'
 */
export function jsonPrefix(value: unknown, max: number): string | undefined {
  if (!writable(value)) return undefined;
  const frames: Frame[] = [];
  let out = open(value, frames, max + 1);
  while (frames.length > 0 && out.length <= max) {
    const top = frames[frames.length - 1]!;
    const length = top.keys ? top.keys.length : (top.container as readonly unknown[]).length;
    if (top.index >= length) {
      out += top.close;
      frames.pop();
      continue;
    }
    const at = top.index++;
    if (at > 0) out += ',';
    if (top.keys) {
      const key = top.keys[at]!;
      const budget = max + 1 - out.length;
      out += `${JSON.stringify(key.length > budget ? key.slice(0, budget) : key)}:`;
      if (out.length > max) break;
      out += open((top.container as Readonly<Record<string, unknown>>)[key], frames, max + 1 - out.length);
    } else {
      out += open((top.container as readonly unknown[])[at], frames, max + 1 - out.length);
    }
  }
  return out;
}
