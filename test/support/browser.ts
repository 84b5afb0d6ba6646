import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { describe, it } from 'vitest';

/**
 * Debian's Chromium, never a downloaded browser (the machine's network reaches only npm and Debian).
 * Debian's `chromium-headless-shell` first: the same Chromium build without the desktop browser's
 * layers, and what Playwright itself runs for headless tests. It took half the CPU of the full
 * browser for the same page (launch 0.2 s against 0.6 s, a page 0.14 s against 0.27 s, a screenshot
 * 0.13 s against 0.25 s), and the gate is bound by CPU. The full browser serves where it is the one
 * installed.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium';
export const SCREENSHOTS = 'test-results';
export const hasChromium = existsSync(CHROMIUM);

/** The two widths every dashboard page is checked at: a laptop and a phone. */
export const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * Without Chromium a browser suite is skipped locally (with a line saying so) and fails in CI, where
 * the dashboard must be checked in a real browser.
 */
export function requireChromium(suite: string): boolean {
  if (hasChromium) return true;
  if (process.env.CI) {
    describe(suite, () => {
      it('needs Chromium', () => {
        throw new Error(`${CHROMIUM} is missing; install it with "apt-get install -y chromium-headless-shell" (CI must run the browser suites)`);
      });
    });
  } else {
    process.stdout.write(`\n${CHROMIUM} is missing: "${suite}" is SKIPPED (apt-get install -y chromium-headless-shell).\n\n`);
  }
  return false;
}

/** The flags that keep headless Chromium off the closed network and quiet; `extraArgs` adds a suite's own (a host-resolver rule, say). */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

let shared: Promise<Browser> | undefined;
let idle: ReturnType<typeof setTimeout> | undefined;

/**
 * The test worker's one Chromium, launched by the first suite that asks (launching took about a
 * second a suite). The worker runs its files one after another, so a suite has the browser to itself:
 * it opens contexts and pages, and gives the browser back with releaseChromium instead of closing it.
 */
export function sharedChromium(): Promise<Browser> {
  clearTimeout(idle);
  shared ??= launchChromium().then((browser) => browser.on('disconnected', () => (shared = undefined)));
  return shared;
}

/**
 * Closes every context (and so every page) a suite opened in the shared browser. The browser waits a
 * second for the worker's next suite, then closes, so that a worker with no suite left can exit.
 */
export async function releaseChromium(browser: Browser | undefined): Promise<void> {
  await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
  clearTimeout(idle);
  idle = setTimeout(() => {
    shared = undefined;
    void browser?.close();
  }, 1000);
}

/** Logs in through the real form on `page` and waits for the dashboard's first page. */
export async function logIn(page: Page, appUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${appUrl}/dashboard/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${appUrl}/dashboard/keys`);
}

/** One logged-in browser context per width in WIDTHS, keyed by width (log-in through the real form). */
export async function loggedInContexts(browser: Browser, appUrl: string, email: string, password: string): Promise<Map<number, BrowserContext>> {
  const contexts = new Map<number, BrowserContext>();
  for (const { width, height } of WIDTHS) {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    await logIn(page, appUrl, email, password);
    await page.close();
    contexts.set(width, context);
  }
  return contexts;
}
