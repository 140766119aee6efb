/**
 * Opens a local HTML file in a headless Chromium (driven through playwright-core, which downloads
 * no browser) with the network off, and reports what a person would see broken: console errors,
 * page errors, requests that left the file, and canvases that stayed blank.
 *
 * The browser comes from the npm registry, so `npm ci` on a machine with only Node is enough: the
 * devDependency @sparticuz/chromium ships a headless Chromium and unpacks it to the temp directory
 * on first use. TRADEWARDEN_CHROMIUM, when set, names another Chromium to drive instead.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sparticuz from "@sparticuz/chromium";
import { chromium } from "playwright-core";

/** The Chromium to drive: TRADEWARDEN_CHROMIUM if set, else the registry's (unpacked on first use). */
async function chromiumPath(): Promise<string> {
  const explicit = process.env.TRADEWARDEN_CHROMIUM;
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`TRADEWARDEN_CHROMIUM names ${explicit}, which does not exist`);
    return explicit;
  }
  return sparticuz.executablePath();
}

export interface PageCheck {
  consoleErrors: string[];
  requests: string[];
  /** Painted (non-transparent) pixels per canvas, in document order. */
  canvasInk: number[];
  text: string;
}

export async function openOffline(file: string, screenshot: string): Promise<PageCheck> {
  const executablePath = await chromiumPath();
  console.log(`chromium: ${executablePath}`);
  const profile = mkdtempSync(join(tmpdir(), "tw-chromium-"));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    offline: true,
    // A fixed locale: otherwise the browser derives one from LANG, and C.UTF-8 gives the tag
    // "en-US@posix", which the report's Intl date formatting rejects.
    locale: "en-US",
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
    const text = (await page.textContent("body")) ?? "";
    await page.screenshot({ path: screenshot, fullPage: true });
    return { consoleErrors, requests, canvasInk, text };
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
