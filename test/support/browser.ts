import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium } from 'playwright-core';

/** Debian's Chromium; nothing is downloaded at test time. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const ARTIFACTS_DIR = join(__dirname, '..', 'artifacts');

/**
 * True when browser tests can run here. Without Chromium they skip with a message, unless
 * REQUIRE_BROWSER is set (CI sets it), in which case a missing browser is a failure.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.REQUIRE_BROWSER) {
    throw new Error(`REQUIRE_BROWSER is set but ${CHROMIUM_PATH} is missing`);
  }
  console.warn(
    `Browser tests skipped: ${CHROMIUM_PATH} not found (apt-get install -y chromium to run them).`,
  );
  return false;
}

export function launchBrowser(): Promise<Browser> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export const screenshotPath = (name: string): string => join(ARTIFACTS_DIR, `${name}.png`);
