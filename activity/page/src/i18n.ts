// The page's own words, generated at build from the same .po catalogues as the chat table.
import catalogues from "./generated/catalogues.json";

type Catalogue = Record<string, string>;
const all: Record<string, Catalogue> = catalogues;

export const LANGUAGES = Object.keys(all);
let language = "en";

export function setLanguage(code: string): string {
  const head = (code.split("-")[0] ?? "").toLowerCase();
  language = head in all ? head : "en";
  document.documentElement.lang = language;
  return language;
}

export function currentLanguage(): string {
  return language;
}

/** The text for `key` in the reader's language (English if missing), `{name}` placeholders filled in. */
export function t(key: string, params: Record<string, string | number> = {}): string {
  const text = all[language]?.[key] ?? all.en?.[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : String(value);
  });
}
