// Firefox ESR for the browser tests (tests/browser/engines.py), through WebDriver
// BiDi with puppeteer-core (no geckodriver needed, no browser download). Speaks the
// drivers' protocol: one JSON command a line on stdin, one JSON answer a line on
// stdout. Every host but localhost goes through the proxy given to "new_page",
// which refuses and records it.
//
//   node tests/browser/drivers/firefox.mjs   (FIREFOX=/path/to/firefox to override)
import { createInterface } from "node:readline";
import puppeteer from "puppeteer-core";

const FIREFOX = process.env.FIREFOX ?? "/usr/bin/firefox-esr";
let browser = null;
let context = null;
let page = null;
let messages = [];
let initScripts = [];  // run first in every page of this profile (add_init_script)

async function launch(proxy) {
  const { hostname, port } = new URL(proxy);
  browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX,
    protocol: "webDriverBiDi",
    headless: true,
    // Release builds honour services.settings.server (below) only with this set.
    env: { ...process.env, MOZ_REMOTE_SETTINGS_DEVTOOLS: "1" },
    extraPrefsFirefox: {
      "network.proxy.type": 1, // manual; localhost never goes through it
      "network.proxy.http": hostname, "network.proxy.http_port": Number(port),
      "network.proxy.ssl": hostname, "network.proxy.ssl_port": Number(port),
      "network.proxy.no_proxies_on": "localhost, 127.0.0.1, [::1]",
      // Firefox's own remote settings (blocklists and the like): not the app's traffic.
      "services.settings.server": "data:,#remote-settings-dummy/v1",
    },
  });
}

async function openTab({ width, height }) {
  page = await context.newPage();
  await page.setViewport({ width, height });
  page.on("console", (message) => messages.push({ level: message.type(), text: message.text() }));
  page.on("pageerror", (error) => messages.push({ level: "error", text: `uncaught: ${error.message ?? error}` }));
  for (const source of initScripts) await page.evaluateOnNewDocument(source);
}

const commands = {
  async new_page({ width, height, proxy }) {
    if (!browser) await launch(proxy);
    await commands.close_page();
    context = await browser.createBrowserContext(); // a fresh profile: storage, workers, caches
    initScripts = [];
    await openTab({ width, height });
    messages = [];
  },
  // The tab closed and a new one opened on the same profile, as a phone opens the app again.
  async new_tab() {
    const viewport = page.viewport();
    await page.close();
    await openTab(viewport);
  },
  // A script every page of this profile runs before its own, from the next page loaded on (this tab's and new tabs').
  async add_init_script({ source }) {
    initScripts.push(source);
    await page.evaluateOnNewDocument(source);
  },
  async goto({ url }) {
    await page.goto(url, { waitUntil: "domcontentloaded" });
  },
  async reload() {
    await page.reload({ waitUntil: "domcontentloaded" });
  },
  async evaluate({ body }) {
    return await page.evaluate(`(async () => { ${body}\n})()`);
  },
  async click({ x, y }) {
    await page.mouse.click(x, y);
  },
  async resize({ width, height }) {
    await page.setViewport({ width, height });
  },
  async screenshot({ path }) {
    // What is on screen: a full-page capture would draw the fixed bottom bar mid-page.
    await page.screenshot({ path });
  },
  async console() {
    const taken = messages;
    messages = [];
    return taken;
  },
  async close_page() {
    if (context) await context.close();
    context = page = null;
  },
};

const answer = (reply) => process.stdout.write(JSON.stringify(reply) + "\n");
const lines = createInterface({ input: process.stdin });
answer({ ready: `Firefox ${FIREFOX}` });
for await (const line of lines) {
  const { do: name, ...args } = JSON.parse(line);
  try {
    const value = await commands[name](args);
    answer({ value: value ?? null });
  } catch (error) {
    answer({ error: String(error?.message ?? error) });
  }
}
await commands.close_page();
if (browser) await browser.close();
