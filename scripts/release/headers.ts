/**
 * Whether a built file is an executable for its target, from its first
 * bytes: the format (ELF, Mach-O, PE) and the machine it says it runs on.
 * x64 and x64-baseline share a header (baseline differs only in which CPU
 * instructions the code uses), so the check cannot tell them apart.
 */
import type { ReleaseTarget } from '../build.ts';

export type Executable = 'elf' | 'macho' | 'pe';
export type Machine = 'x64' | 'arm64';

/** What a target's file must be. */
export function expectedHeader(target: ReleaseTarget): { readonly format: Executable; readonly machine: Machine } {
  const format: Executable = target.startsWith('linux-') ? 'elf' : target.startsWith('darwin-') ? 'macho' : 'pe';
  return { format, machine: target.includes('arm64') ? 'arm64' : 'x64' };
}

/** ELF e_machine values (System V gABI). */
const ELF_MACHINE: Readonly<Record<number, Machine>> = { 0x3e: 'x64', 0xb7: 'arm64' };
/** Mach-O cputype values (CPU_ARCH_ABI64 | CPU_TYPE_X86, | CPU_TYPE_ARM). */
const MACHO_CPU: Readonly<Record<number, Machine>> = { 0x01000007: 'x64', 0x0100000c: 'arm64' };
/** PE/COFF Machine values (IMAGE_FILE_MACHINE_AMD64, _ARM64). */
const PE_MACHINE: Readonly<Record<number, Machine>> = { 0x8664: 'x64', 0xaa64: 'arm64' };

/** The format and machine the header names, or why it names none we know. */
export function readHeader(bytes: Uint8Array): { readonly format: Executable; readonly machine: Machine | `unknown ${string}` } | { readonly unknown: string } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = (offset: number, size: 2 | 4) => (offset + size <= bytes.byteLength ? (size === 2 ? view.getUint16(offset, true) : view.getUint32(offset, true)) : undefined);
  const named = (table: Readonly<Record<number, Machine>>, value: number | undefined) => (value !== undefined && table[value]) || (`unknown ${value === undefined ? 'none' : `0x${value.toString(16)}`}` as const);
  if (bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46) {
    // 64-bit (EI_CLASS 2), little-endian (EI_DATA 1): the only ELF any target is.
    if (bytes[4] !== 2 || bytes[5] !== 1) return { unknown: `ELF class ${bytes[4]} data ${bytes[5]} (want 64-bit little-endian)` };
    return { format: 'elf', machine: named(ELF_MACHINE, at(18, 2)) };
  }
  if (at(0, 4) === 0xfeedfacf) return { format: 'macho', machine: named(MACHO_CPU, at(4, 4)) };
  if (bytes[0] === 0x4d && bytes[1] === 0x5a) {
    const pe = at(0x3c, 4);
    if (pe === undefined || at(pe, 4) !== 0x00004550) return { unknown: 'MZ without a PE signature' };
    return { format: 'pe', machine: named(PE_MACHINE, at(pe + 4, 2)) };
  }
  return { unknown: 'not ELF, Mach-O (64-bit) or PE' };
}

/** Undefined when `bytes` (a file's start: 4 KiB is plenty) is an executable for `target`; otherwise what it is instead. */
export function headerProblem(bytes: Uint8Array, target: ReleaseTarget): string | undefined {
  const want = expectedHeader(target);
  const got = readHeader(bytes);
  if ('unknown' in got) return `${target}: ${got.unknown}`;
  if (got.format !== want.format || got.machine !== want.machine) return `${target}: the header says ${got.format} ${got.machine}, want ${want.format} ${want.machine}`;
  return undefined;
}
