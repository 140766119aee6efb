/**
 * Opens a local HTML file in the system's headless Chromium (Debian's `chromium`, driven through
 * playwright-core, which downloads no browser) with the network off, and reports what a person
 * would see broken: console errors, page errors, requests that left the file, and canvases that
 * stayed blank. Fails loudly when Chromium is not installed: `.ci/run` installs it.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.TRADEWARDEN_CHROMIUM ?? "/usr/bin/chromium";

export interface PageCheck {
  consoleErrors: string[];
  requests: string[];
  /** Painted (non-transparent) pixels per canvas, in document order. */
  canvasInk: number[];
  text: string;
}

export async function openOffline(file: string, screenshot: string): Promise<PageCheck> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: the report's browser test needs it (apt-get install -y chromium; .ci/run installs it)`);
  }
  const profile = mkdtempSync(join(tmpdir(), "tw-chromium-"));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    offline: true,
    viewport: { width: 1200, height: 900 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    const page = await browser.newPage();
    const consoleErrors: string[] = [];
    const requests: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    page.on("pageerror", (e) => consoleErrors.push(String(e)));
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(`file://${file}`, { waitUntil: "load" });
    await page.waitForSelector("body[data-charts]", { timeout: 15_000 });
    // Runs in the page (a string: the test's TypeScript has no DOM types).
    const canvasInk = (await page.evaluate(`[...document.querySelectorAll("canvas")].map((c) => {
      const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) n++;
      return n;
    })`)) as number[];
    const text = await page.textContent("body") ?? "";
    await page.screenshot({ path: screenshot, fullPage: true });
    return { consoleErrors, requests, canvasInk, text };
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
