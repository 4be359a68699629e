/**
 * The table of compiled rulesets the threads of `filter --workers N` share (src/cli/filter/shared-rulesets.ts):
 * what one view publishes, another view of the same buffer (as a worker thread holds it) reads back byte for
 * byte under the same key and no other; the first publication of a key stands; and a full table refuses
 * quietly, so that threads compile what it cannot hold.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { SharedRulesets } from '../../../src/cli/filter/shared-rulesets.js';

function bytes(seed: number, length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (seed * 31 + i * 7) & 0xff);
}

describe('SharedRulesets', () => {
  it('gives back what was published, to another view of the buffer, by key alone', () => {
    const table = SharedRulesets.create(1 << 20);
    const other = new SharedRulesets(table.buffer, table.slots);
    expect(other.get('example.com 443')).toBeUndefined();
    table.publish('example.com 443', bytes(1, 300));
    table.publish('example.com 80', bytes(2, 40));
    table.publish('bücher.de 443', bytes(3, 1));
    expect(other.get('example.com 443')).toEqual(bytes(1, 300));
    expect(other.get('example.com 80')).toEqual(bytes(2, 40));
    expect(other.get('bücher.de 443')).toEqual(bytes(3, 1));
    expect(other.get('example.com')).toBeUndefined();
    expect(other.get('example.co 443')).toBeUndefined();
    expect(other.size).toBe(3);
  });

  it('keeps the first publication of a key', () => {
    const table = SharedRulesets.create(1 << 20);
    table.publish('a.example', bytes(1, 10));
    new SharedRulesets(table.buffer, table.slots).publish('a.example', bytes(2, 20));
    expect(table.get('a.example')).toEqual(bytes(1, 10));
    expect(table.size).toBe(1);
  });

  it('holds thousands of keys, every one found (the index probes past collisions)', () => {
    const table = SharedRulesets.create(8 << 20);
    for (let i = 0; i < 2000; i++) table.publish(`host-${i}.example ${i % 2 ? 80 : 443}`, bytes(i, 1 + (i % 97)));
    for (let i = 0; i < 2000; i++) expect(table.get(`host-${i}.example ${i % 2 ? 80 : 443}`)).toEqual(bytes(i, 1 + (i % 97)));
    expect(table.get('host-2000.example 443')).toBeUndefined();
  });

  it('when full, publishes nothing more and throws nothing', () => {
    const table = SharedRulesets.create(64 * 1024);
    let published = 0;
    for (let i = 0; i < 200; i++) {
      table.publish(`h${i}`, bytes(i, 1000));
      if (table.get(`h${i}`) !== undefined) published++;
    }
    expect(published).toBeGreaterThan(0);
    expect(published).toBeLessThan(200);
    expect(table.size).toBe(published);
    for (let i = 0; i < 200; i++) {
      const found = table.get(`h${i}`);
      if (found !== undefined) expect(found).toEqual(bytes(i, 1000));
    }
  });

  it('is one memory with the worker threads it is posted to, not a copy', async () => {
    const table = SharedRulesets.create(1 << 20);
    table.publish('main.example', bytes(5, 64));
    const last = table.buffer.byteLength - 1;
    // The worker sees the entry this thread wrote, and its write at the end is seen here.
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const all = new Uint8Array(workerData.buffer);
       all[workerData.last] = 7;
       parentPort.postMessage(all.indexOf(${bytes(5, 64)[10]}) >= 0 && workerData.buffer instanceof SharedArrayBuffer);`,
      { eval: true, workerData: { buffer: table.buffer, last } },
    );
    const shared = await new Promise<boolean>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(shared).toBe(true);
    expect(new Uint8Array(table.buffer)[last]).toBe(7);
  });
});
