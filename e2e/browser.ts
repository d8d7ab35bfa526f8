import { existsSync } from 'node:fs';

/** Chromium from the system: CHROME_PATH, or the usual install paths. Never downloaded. */
export function findChromium(): string | undefined {
  const candidates = [
    process.env.CHROME_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
  ].filter((p): p is string => Boolean(p));
  return candidates.find((p) => existsSync(p));
}

/** Flags for a closed network: no background connections, no updates, no sync. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
