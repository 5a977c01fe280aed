/** The named keys of `T` (not an index signature's). */
type Known<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: 0 };
type OptionalKeys<T> = { [K in Known<T>]-?: {} extends Pick<T, K> ? K : never }[Known<T>];
/**
 * Deeply readonly, and an optional field is absent rather than `undefined`
 * (as in JSON, and as `exactOptionalPropertyTypes` types it): a writer may
 * pass readonly data, a reader may not change what it read.
 */
export type Frozen<T> = T extends readonly (infer U)[]
  ? readonly Frozen<U>[]
  : T extends object
    ? { readonly [K in Exclude<Known<T>, OptionalKeys<T>>]: Frozen<T[K]> } & { readonly [K in OptionalKeys<T>]?: Frozen<Exclude<T[K], undefined>> } & (string extends keyof T ? { readonly [key: string]: unknown } : unknown)
    : T;

