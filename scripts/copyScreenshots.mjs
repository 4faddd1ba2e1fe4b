// `npm run screenshots`: copies the window as the browser tests last drew it (test-results/
// screenshots, written by `npm test` or a single browser test) into docs/screenshots, which the
// README and docs show. The tests never write docs/ themselves, so a test run changes no tracked file.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const from = path.join(root, "test-results", "screenshots");
const to = path.join(root, "docs", "screenshots");
const shots = fs.existsSync(from) ? fs.readdirSync(from).filter((name) => name.endsWith(".png")) : [];
if (shots.length === 0) {
  console.error(`no screenshots in ${path.relative(root, from)}: run the browser tests first (npm test, or npx vitest run test/integration/ui*.test.ts)`);
  process.exit(1);
}
fs.mkdirSync(to, { recursive: true });
for (const name of shots) fs.copyFileSync(path.join(from, name), path.join(to, name));
console.log(`copied ${shots.length} screenshot(s) into ${path.relative(root, to)}`);
