/**
 * The built command refuses the names only a private resolver answers as they are written, before any DNS
 * lookup, as the library's publicHostsOnly does (src/cli/host-guard.ts): the RHEL family of localhost names,
 * names with an empty label, Kubernetes' `.svc`. The command runs on the test network
 * (test/support/cli-network-preload.mjs): these names are in no DNS table there, so a lookup of one would end
 * as a DNS failure, not a refusal; every socket stays on 127.0.0.1, and each attempt is written to stderr.
 */
import { describe, expect, it } from 'vitest';
import { runOnTestNetwork as run } from '../../support/cli.js';

const NAMES = [
  'localhost.localdomain',
  'localhost4.localdomain4',
  'localhost6.localdomain6',
  'localhost..',
  'metadata.google.internal..',
  'kubernetes.default.svc',
  'kubernetes.default.svc.',
];
// `kubernetes.default.svc.` is the host `kubernetes.default.svc`, as the URL parser reads it: one host, refused once.
const HOSTS = NAMES.length - 1;

describe('the command refuses private names as written', () => {
  it('filter --fetch counts each as a refused host, never looks it up, never connects', async () => {
    const input = NAMES.map((name) => `http://${name}/page`).join('\n');
    const result = await run(['filter', '--agent', 'ExampleBot', '--fetch', '--missing', 'disallow', '--workers', '1'], {}, `${input}\n`);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    const refused = /^refused hosts: (\d+) \((.*)\): internal, not fetched/m.exec(result.stderr);
    expect(refused?.[1]).toBe(String(HOSTS));
    // The note names the first five, then '…'.
    const named = refused?.[2]?.split(', ') ?? [];
    expect(named.at(-1)).toBe('…');
    expect(named.slice(0, -1).filter((name) => NAMES.includes(name))).toHaveLength(5);
    // Refused, not without robots.txt: their lines are disallowed as the library reads a refused host.
    expect(result.stderr).toMatch(new RegExp(`^hosts: ${HOSTS}, without robots\\.txt: 0$`, 'm'));
    expect(result.stderr).not.toMatch(/ENOTFOUND|not in the test's DNS table/);
    expect(result.stderr).not.toMatch(/\[test-network\]/);
  });
});
