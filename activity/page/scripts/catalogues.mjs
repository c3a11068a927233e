// The page's words, from the same gettext catalogues as the chat table (cogs/locales/*.po), as JSON.
// Every key the page names (t("screen.…") and the few shared ones) must be in every catalogue: a missing one
// fails the build here, and tests/activity/test_page_catalogues.py checks it too.
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const locales = join(here, "..", "..", "..", "cogs", "locales");
const source = join(here, "..", "src");
const out = join(source, "generated");
const SHARED = ["card.joker", "card.joker2", "error.not_your_turn", "suit.S", "suit.H", "suit.D", "suit.C"];

function unquote(text) {
  return JSON.parse(text); // a .po string is a JSON string for our catalogues: \" \\ \n and nothing else
}

// A text is a string, or for a text with plural forms ({"count": placeholder, "forms": [...]}) the name of
// the placeholder whose number picks the form (msgid_plural) and the language's forms (msgstr[0], [1]…).
export function readPo(path) {
  const entries = {};
  let field = null;
  let id = "";
  let value = "";
  let count = null;
  let forms = [];
  const flush = () => {
    if (id) entries[id] = count === null ? value : { count, forms };
    id = "";
    value = "";
    count = null;
    forms = [];
  };
  for (const raw of readFileSync(path, "utf8").split("\n")) {
    const line = raw.trim();
    const form = line.match(/^msgstr\[(\d+)\] (.*)$/);
    if (line.startsWith("msgid ")) {
      flush();
      field = "id";
      id = unquote(line.slice(6));
    } else if (line.startsWith("msgid_plural ")) {
      field = "plural";
      count = unquote(line.slice(13)).replace(/^\{|\}$/g, "");
    } else if (form) {
      field = "form";
      forms[Number(form[1])] = unquote(form[2]);
    } else if (line.startsWith("msgstr ")) {
      field = "str";
      value = unquote(line.slice(7));
    } else if (line.startsWith('"') && field === "id") {
      id += unquote(line);
    } else if (line.startsWith('"') && field === "str") {
      value += unquote(line);
    } else if (line.startsWith('"') && field === "form") {
      forms[forms.length - 1] += unquote(line);
    }
  }
  flush();
  return entries;
}

function namedKeys() {
  const keys = new Set(SHARED);
  for (const name of readdirSync(source)) {
    if (!name.endsWith(".ts")) continue;
    const text = readFileSync(join(source, name), "utf8");
    for (const match of text.matchAll(/\bt\(\s*"([a-z_]+\.[a-zA-Z0-9_.]+)"/g)) keys.add(match[1]);
  }
  return [...keys].sort();
}

const keys = namedKeys();
const catalogues = {};
const missing = [];
for (const file of readdirSync(locales).filter((name) => name.endsWith(".po")).sort()) {
  const language = file.slice(0, -3);
  const entries = readPo(join(locales, file));
  catalogues[language] = {};
  for (const key of keys) {
    if (entries[key]) catalogues[language][key] = entries[key];
    else missing.push(`${language}: ${key}`);
  }
}
if (missing.length) {
  console.error(`keys missing from the catalogues:\n  ${missing.join("\n  ")}`);
  process.exit(1);
}
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "catalogues.json"), JSON.stringify(catalogues, null, 1) + "\n");
console.log(`catalogues: ${keys.length} keys in ${Object.keys(catalogues).join(", ")}`);
