import { canonicalJson } from './canonical.ts';

/** Hex sha256 of raw bytes or of a string's UTF-8 encoding. */
export function sha256Hex(data: string | Uint8Array): string {
  return new Bun.CryptoHasher('sha256').update(data).digest('hex');
}

/** Hex sha256 of the canonical JSON of a value (schema hash, binding id). */
export function canonicalHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
