// The catalogue's texts are written for Discord, whose inline markdown some of them carry ("**Declare**: …").
// Every text the server words from a game's description (activity/words.py `said`) is such a text, names in it
// escaped ("\*", "\\"): here it is drawn as DOM nodes, **bold** and *italic* as <strong> and <em>, every character
// else as text (never parsed as HTML).

const ESCAPABLE = "\\*"; // a backslash before one of these keeps it as it is (the server escapes them in names)

type Mark = "**" | "*";
type Token = { mark: Mark } | { text: string };
/** A piece of a text: plain text, or text in bold or italic (itself made of pieces). */
type Run = string | { mark: Mark; runs: Run[] };

function tokens(text: string): Token[] {
  const found: Token[] = [];
  let buffer = "";
  const flush = (): void => {
    if (buffer) found.push({ text: buffer });
    buffer = "";
  };
  for (let at = 0; at < text.length; ) {
    const ch = text.charAt(at);
    const next = text.charAt(at + 1);
    if (ch === "\\" && next && ESCAPABLE.includes(next)) {
      buffer += next;
      at += 2;
    } else if (ch === "*") {
      flush();
      const mark: Mark = next === "*" ? "**" : "*";
      found.push({ mark });
      at += mark.length;
    } else {
      buffer += ch;
      at += 1;
    }
  }
  flush();
  return found;
}

function textOf(token: Token | undefined): string {
  return token && "text" in token ? token.text : "";
}

/** Pair each mark with the next alike, around something that neither starts nor ends with a space; a mark
 * left without its pair is text. */
function runs(found: Token[], from: number, to: number): Run[] {
  const out: Run[] = [];
  const add = (text: string): void => {
    const last = out[out.length - 1];
    if (typeof last === "string") out[out.length - 1] = last + text;
    else out.push(text);
  };
  for (let at = from; at < to; at += 1) {
    const token = found[at];
    if (token === undefined) break;
    if ("text" in token) {
      add(token.text);
      continue;
    }
    let close = -1;
    if (!/^\s/.test(textOf(found[at + 1]))) {
      for (let end = at + 2; end < to; end += 1) {
        const candidate = found[end];
        if (candidate && "mark" in candidate && candidate.mark === token.mark && !/\s$/.test(textOf(found[end - 1]))) {
          close = end;
          break;
        }
      }
    }
    if (close < 0) {
      add(token.mark);
      continue;
    }
    out.push({ mark: token.mark, runs: runs(found, at + 1, close) });
    at = close;
  }
  return out;
}

function nodes(pieces: Run[]): (Node | string)[] {
  return pieces.map((piece) => {
    if (typeof piece === "string") return piece;
    const node = document.createElement(piece.mark === "**" ? "strong" : "em");
    node.append(...nodes(piece.runs));
    return node;
  });
}

/** A catalogue text drawn: its bold and italic as <strong> and <em>, the rest as text nodes. */
export function rich(text: string): (Node | string)[] {
  const found = tokens(text);
  return nodes(runs(found, 0, found.length));
}
