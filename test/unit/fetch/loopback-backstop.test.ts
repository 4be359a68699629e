/**
 * The backstop of every test process (test/support/loopback-only.setup.ts): sockets stay on the loopback
 * interface. Checked on the patch first, so that a missing backstop fails here before anything is sent.
 */
import net from 'node:net';
import { expect, it } from 'vitest';
import { startServer, text } from '../../support/http-server.js';

it('every test process refuses a connection off the loopback interface, before any DNS query or packet', async () => {
  expect(net.Socket.prototype.connect.name).toBe('connectLoopbackOnly');
  const refusal = await fetch('http://example.invalid/robots.txt').then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(String((refusal as { cause?: unknown } | undefined)?.cause)).toMatch(/tests may only connect to the loopback interface/);
  const site = await startServer({ '/robots.txt': text('User-agent: *\n') });
  expect(await (await fetch(`${site.origin}/robots.txt`)).text()).toBe('User-agent: *\n');
  await site.close();
});
