/** What a JSON Pointer finds in a value: the value there, or that nothing is. */
export type Pointed = { readonly found: true; readonly value: unknown } | { readonly found: false };

const decodeToken = (token: string): string => token.replaceAll('~1', '/').replaceAll('~0', '~');

/**
 * Resolves an RFC 6901 JSON Pointer (the scenario schema has checked its
 * syntax): `""` is the whole value; an array is indexed by a decimal index
 * without leading zeros (`-` and anything else find nothing); an object by
 * its own keys only, so `/__proto__` or `/constructor` find nothing a JSON
 * document did not carry.
 */
export function resolvePointer(value: unknown, pointer: string): Pointed {
  if (pointer === '') return { found: true, value };
  let at: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const token = decodeToken(raw);
    if (Array.isArray(at)) {
      if (!/^(?:0|[1-9][0-9]*)$/.test(token) || Number(token) >= at.length) return { found: false };
      at = at[Number(token)];
    } else if (at !== null && typeof at === 'object') {
      if (!Object.hasOwn(at, token)) return { found: false };
      at = (at as Record<string, unknown>)[token];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: at };
}
