// Bundle the page into dist/: one script and one stylesheet, everything served by the bot (no CDN).
import { build } from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, "assets"), { recursive: true });
await build({
  entryPoints: [join(root, "src", "main.ts")],
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2022", "chrome110", "safari16"],
  outfile: join(dist, "assets", "app.js"),
  legalComments: "linked",
  logLevel: "warning",
});
copyFileSync(join(root, "src", "index.html"), join(dist, "index.html"));
copyFileSync(join(root, "src", "style.css"), join(dist, "assets", "style.css"));
console.log("built dist/");
