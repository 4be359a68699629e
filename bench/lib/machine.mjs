/**
 * The machine a benchmark ran on, and how fast it ran plain JS at a given moment: every report states the
 * first, and the timing processes take the second just before timing, so that a run slowed by a neighbour on
 * the (shared) machine shows as such.
 */
import { arch, cpus, platform, totalmem } from 'node:os';

/** @typedef {{ cpu: string, cores: number, memory: string, node: string, os: string, date: string }} Machine */

/** @returns {Machine} */
export function machine() {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown CPU',
    cores: cpu.length,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    os: `${platform()} ${arch()}`,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

/**
 * How fast the machine runs plain JS right now: a fixed integer loop, in rounds per ms. The machine is shared
 * (2 vCPUs that may be one core's hyperthreads), and a neighbour's load can halve every number; this probe,
 * taken just before timing, lets the report show which runs were slowed that way.
 */
export function machineProbe() {
  let state = 1;
  let rounds = 0;
  const started = performance.now();
  let elapsed = 0;
  while ((elapsed = performance.now() - started) < 50) {
    for (let i = 0; i < 10_000; i++) state = Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + i;
    rounds++;
  }
  return { roundsPerMs: rounds / elapsed, state: state & 1 };
}

/** The machine as every report's first line states it. @param {Machine} m */
export function describeMachine(m) {
  return `${m.date} · ${m.cpu}, ${m.cores} cores, ${m.memory} · Node ${m.node} (${m.os})`;
}
