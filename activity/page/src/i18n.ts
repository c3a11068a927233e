// The page's own words, generated at build from the same .po catalogues as the chat table.
import catalogues from "./generated/catalogues.json";

/** A text, or a text with plural forms: the placeholder whose number picks the form, and the forms. */
type Text = string | { count: string; forms: string[] };
type Catalogue = Record<string, Text>;
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
  const found = all[language]?.[key] ?? all.en?.[key] ?? key;
  const text = typeof found === "string" ? found : pluralForm(found, params);
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : String(value);
  });
}

/** The form of a text with plural forms for its number, by the language's own rule ("1 card", "2 cards"). */
function pluralForm(text: { count: string; forms: string[] }, params: Record<string, string | number>): string {
  const number = Number(params[text.count] ?? 0);
  if (text.forms.length === 1) return text.forms[0] ?? "";
  const one = new Intl.PluralRules(language).select(number) === "one";
  return (one ? text.forms[0] : text.forms[1]) ?? text.forms[0] ?? "";
}
