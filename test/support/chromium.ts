/**
 * Headless Chromium for the browser suite: the system's own build (Debian's `chromium`), driven by
 * playwright-core through its executablePath, so no browser is downloaded. Missing, it is a system tool like
 * any other (system-tool.ts): the suite skips with a note, or fails under CI=true.
 */
import { chromium, type Browser } from 'playwright-core';
import { systemTool, type SystemTool } from './system-tool.js';

export const CHROMIUM_INSTALL = 'apt-get install -y --no-install-recommends chromium';

/** Whether the browser suite runs here; see systemTool(). */
export function chromiumTool(): SystemTool {
  return systemTool({ name: 'chromium', install: CHROMIUM_INSTALL, version: /^Chromium \d+/m });
}

/**
 * Chromium's own traffic, which no page asks for, turned off: the background services that call Google's hosts
 * (component updates, sync, field trials, QUIC probes), and every host name but 127.0.0.1 made unresolvable, so
 * a request that slips past the page's recording still cannot leave loopback.
 */
const QUIET = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

/** Launches Chromium at `executablePath`, headless, with a fresh empty profile (playwright makes one per launch). */
export function launchChromium(executablePath: string): Promise<Browser> {
  // Without a sandbox: Chromium refuses to start its sandbox as root, which CI is.
  return chromium.launch({ executablePath, headless: true, chromiumSandbox: false, args: QUIET });
}
