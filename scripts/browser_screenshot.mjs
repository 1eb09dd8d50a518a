// Screenshot a fact's version chain in Neo4j Browser, styled with docs/graphmem.grass, in a
// real headless Chromium (Playwright's playwright-core driving the system's Chromium).
//
//   npm install --prefix /tmp/pw playwright-core        # once, outside the repository
//   NODE_PATH=/tmp/pw/node_modules node scripts/browser_screenshot.mjs \
//     --browser http://127.0.0.1:7474/browser/ --bolt bolt://127.0.0.1:7687 \
//     --fact-id fact_… --out docs/browser-version-chain.png [--chromium /usr/bin/chromium]
//
// It connects without auth (scripts/neo4j-local disables it), applies the style with the
// `:style` command, sets `:param fact_id`, runs cypher/queries/version_chain_graph.cypher
// and saves the result frame as a PNG. Exits 1 with what it saw when a step fails.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(join(process.env.NODE_PATH || process.cwd(), 'x.js'));
const { chromium } = require('playwright-core');

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, arg, i, all) =>
  arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs, []));
const browserUrl = args.browser || 'http://127.0.0.1:7474/browser/';
const bolt = args.bolt || 'bolt://127.0.0.1:7687';
const out = args.out || join(repo, 'docs', 'browser-version-chain.png');
if (!args['fact-id']) { console.error('--fact-id is required'); process.exit(2); }

const oneLine = (text) => text.split('\n').filter((l) => !l.trim().startsWith('//'))
  .join(' ').replace(/\s+/g, ' ').trim();
const grass = oneLine(readFileSync(join(repo, 'docs', 'graphmem.grass'), 'utf8'));
const query = oneLine(readFileSync(join(repo, 'cypher', 'queries', 'version_chain_graph.cypher'),
  'utf8'));

const browser = await chromium.launch({
  executablePath: args.chromium || '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1600, height: 1000 },
  deviceScaleFactor: 1 });
try {
  const url = `${browserUrl}?dbms=${encodeURIComponent(bolt)}&preselectAuthMethod=NO_AUTH`;
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.getByText('Connected to Neo4j').first().waitFor({ timeout: 60_000 });

  const run = async (command) => {
    const before = await page.locator('[data-testid="frame"]').count();
    await runQuietly(command);
    await page.waitForFunction((n) =>
      document.querySelectorAll('[data-testid="frame"]').length > n, before);
  };
  const runQuietly = async (command) => {
    await page.locator('[data-testid="activeEditor"]').click();
    await page.keyboard.insertText(command);
    await page.keyboard.press('Control+Enter');
  };
  await runQuietly(':clear');
  await page.locator('[data-testid="frame"]').first().waitFor({ state: 'detached' });
  await run(`:style ${grass}`);
  await run(`:param fact_id => '${args['fact-id']}'`);
  await page.getByText('Successfully set your parameters').waitFor();
  await run(query);
  const frame = page.locator('[data-testid="frame"]').first();
  await frame.locator('svg .node').first().waitFor({ timeout: 60_000 });
  await frame.locator('button[title="Fullscreen"]').first().click();
  await page.waitForTimeout(6000); // let the force layout settle
  for (let i = 0; i < Number(args.zoom || 2); i += 1) {
    await page.locator('button.zoom-in').first().click();
    await page.waitForTimeout(500);
  }
  await page.waitForTimeout(1500);
  await page.screenshot({ path: out });
  console.log(`saved ${out}`);
} catch (error) {
  console.error(`failed: ${error.message}`);
  await page.screenshot({ path: `${out}.failed.png` });
  console.error((await page.locator('body').innerText()).slice(0, 2000));
  process.exitCode = 1;
} finally {
  await browser.close();
}
