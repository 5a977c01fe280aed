/**
 * What caplab needs from the operating system beyond Node's API: /proc
 * reading, process-group signalling and membership (the one teardown MCP
 * servers and command hooks share), the child subreaper that finds
 * processes escaped by `setsid` (Linux; the gap elsewhere is stated in every
 * close report), the guard process that kills children and removes
 * probe's temp folder when caplab dies, even by SIGKILL (guard.ts), the
 * fresh empty folder a server starts in, registered before it is made
 * (fresh-dir.ts), and the cleanups main.ts's last-resort handler runs first
 * (last-resort.ts). Which OS it runs on is one value, made on first use
 * (platform.ts): a test puts another in its place to drive that OS's teardown.
 */
export { allProcesses, isAlive, procStat } from './proc.ts';
export type { ProcStat } from './proc.ts';
export { currentPlatform, osOf, platformFor, usePlatform } from './platform.ts';
export type { OsName, Platform, PlatformCalls, TeardownSignal } from './platform.ts';
export { becomeSubreaper, gapOn, mergeReports, reapOrphans, trackChild } from './subreaper.ts';
export type { NamedCount, OrphanReport, SweepGraces } from './subreaper.ts';
export { livingMembers, signalGroup, waitGroupGone } from './process-group.ts';
export { enableGuard, processGuard } from './guard.ts';
export { atLastResort, runLastResort } from './last-resort.ts';
export { isGuardableGroup } from './guard-protocol.ts';
export { freshDir } from './fresh-dir.ts';
export type { FreshDir, FreshDirOptions } from './fresh-dir.ts';
export type { ProcessGuard, Release } from './guard.ts';
