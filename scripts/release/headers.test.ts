import { expect, test } from 'bun:test';
import { openSync, readSync, closeSync } from 'node:fs';
import { RELEASE_TARGETS } from '../build.ts';
import { headerProblem } from './headers.ts';

/** Fixture headers, written byte by byte from each format's spec (little-endian fields). */
function elf(machine: number): Uint8Array {
  const bytes = new Uint8Array(64);
  bytes.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]); // \x7fELF, ELFCLASS64, ELFDATA2LSB, EV_CURRENT
  bytes.set([2, 0], 16); // e_type ET_EXEC
  bytes.set([machine & 0xff, machine >> 8], 18); // e_machine
  return bytes;
}
function macho(cpu: number): Uint8Array {
  const bytes = new Uint8Array(32);
  bytes.set([0xcf, 0xfa, 0xed, 0xfe]); // MH_MAGIC_64
  bytes.set([cpu & 0xff, (cpu >> 8) & 0xff, (cpu >> 16) & 0xff, cpu >>> 24], 4); // cputype
  bytes.set([2, 0, 0, 0], 12); // MH_EXECUTE
  return bytes;
}
function pe(machine: number): Uint8Array {
  const bytes = new Uint8Array(0x100);
  bytes.set([0x4d, 0x5a]); // MZ
  bytes.set([0x80, 0, 0, 0], 0x3c); // e_lfanew = 0x80
  bytes.set([0x50, 0x45, 0, 0, machine & 0xff, machine >> 8], 0x80); // PE\0\0, Machine
  return bytes;
}
const FIXTURES = {
  'linux-x64': elf(62),
  'linux-x64-baseline': elf(62),
  'linux-arm64': elf(183),
  'darwin-arm64': macho(0x0100000c),
  'darwin-x64': macho(0x01000007),
  'windows-x64': pe(0x8664),
} as const;

test('each of the six targets passes on its own fixture header', () => {
  expect(RELEASE_TARGETS.map((t) => [t, headerProblem(FIXTURES[t], t) ?? 'ok'])).toEqual(RELEASE_TARGETS.map((t) => [t, 'ok']));
});

test('an arm64 header under an x64 name fails, and so does every other mismatch of format or machine', () => {
  expect(headerProblem(FIXTURES['linux-arm64'], 'linux-x64')).toBe('linux-x64: the header says elf arm64, want elf x64');
  expect(headerProblem(FIXTURES['darwin-arm64'], 'darwin-x64')).toBe('darwin-x64: the header says macho arm64, want macho x64');
  expect(headerProblem(pe(0xaa64), 'windows-x64')).toBe('windows-x64: the header says pe arm64, want pe x64');
  const mismatches = RELEASE_TARGETS.flatMap((name) => RELEASE_TARGETS.filter((file) => FIXTURES[file] !== FIXTURES[name] && headerProblem(FIXTURES[file], name) === undefined && !(name.startsWith('linux-x64') && file.startsWith('linux-x64'))).map((file) => `${file} as ${name}`));
  expect(mismatches).toEqual([]);
});

test('what is no executable of ours is named: a 32-bit ELF, an unknown machine, MZ without PE, a text file, an empty file', () => {
  const elf32 = elf(62);
  elf32[4] = 1;
  expect(headerProblem(elf32, 'linux-x64')).toBe('linux-x64: ELF class 1 data 1 (want 64-bit little-endian)');
  expect(headerProblem(elf(0x28), 'linux-x64')).toBe('linux-x64: the header says elf unknown 0x28, want elf x64');
  expect(headerProblem(new Uint8Array([0x4d, 0x5a]), 'windows-x64')).toBe('windows-x64: MZ without a PE signature');
  expect(headerProblem(new TextEncoder().encode('#!/bin/sh\n'), 'linux-x64')).toBe('linux-x64: not ELF, Mach-O (64-bit) or PE');
  expect(headerProblem(new Uint8Array(0), 'darwin-arm64')).toBe('darwin-arm64: not ELF, Mach-O (64-bit) or PE');
});

test('the Bun running this test (a real executable for this host) passes as its own target and fails as the other machine', () => {
  const fd = openSync(process.execPath, 'r');
  const head = new Uint8Array(4096);
  readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const own = process.platform === 'darwin' ? `darwin-${arch}` : process.platform === 'win32' ? 'windows-x64' : `linux-${arch}`;
  const other = own.replace(arch, arch === 'x64' ? 'arm64' : 'x64');
  expect(headerProblem(head, own as (typeof RELEASE_TARGETS)[number])).toBeUndefined();
  expect(headerProblem(head, other as (typeof RELEASE_TARGETS)[number])).toContain('the header says');
});
