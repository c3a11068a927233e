// Cards drawn as SVG (crisp at any size): a four-colour deck, each suit with its own shape and colour, so a
// reader who cannot tell red from green still tells every suit apart by its symbol and its shade.
import { el, svg } from "./dom";
import { t } from "./i18n";

export const SUIT_COLOUR: Record<string, string> = {
  S: "#111111", // spades: black
  H: "#c24f00", // hearts: vermilion
  D: "#0062a8", // diamonds: blue
  C: "#00795c", // clubs: bluish green
};
const JOKER_COLOUR = "#6b3fa0";

const PATHS: Record<string, string> = {
  S: "M50 4C62 22 96 40 92 64C89 80 70 84 56 72C58 82 62 90 70 96L30 96C38 90 42 82 44 72C30 84 11 80 8 64C4 40 38 22 50 4Z",
  H: "M50 92C36 78 6 58 6 34C6 18 18 8 31 8C40 8 47 14 50 22C53 14 60 8 69 8C82 8 94 18 94 34C94 58 64 78 50 92Z",
  D: "M50 4L88 50L50 96L12 50Z",
  C: "M46 50C46 70 40 86 30 96L70 96C60 86 54 70 54 50Z",
};
const STAR = "M50 4L61 38L96 38L68 59L79 94L50 73L21 94L32 59L4 38L39 38Z";

export function isJoker(card: string): boolean {
  return card.startsWith("JK");
}

export function suitOf(card: string): string | null {
  return isJoker(card) ? null : card.slice(-1);
}

export function rankOf(card: string): string {
  return isJoker(card) ? "" : card.slice(0, -1);
}

/** How a card is read aloud and in texts: "A♠", "10♥", the joker by name. */
export function cardName(card: string): string {
  if (isJoker(card)) return t(card === "JK2" ? "card.joker2" : "card.joker");
  const symbol = { S: "♠", H: "♥", D: "♦", C: "♣" }[suitOf(card) ?? ""] ?? "";
  return `${rankOf(card)}${symbol}`;
}

/** A spoken name for screen readers: "A of Spades". */
export function cardLabel(card: string): string {
  if (isJoker(card)) return cardName(card);
  return `${rankOf(card)} ${t(`suit.${suitOf(card) ?? "S"}`)}`;
}

function suitShape(suit: string, x: number, y: number, size: number, colour: string): SVGGElement {
  const group = svg("g", { transform: `translate(${x} ${y}) scale(${size / 100})`, fill: colour });
  if (suit === "C") {
    group.append(
      svg("circle", { cx: 50, cy: 28, r: 20 }),
      svg("circle", { cx: 27, cy: 56, r: 20 }),
      svg("circle", { cx: 73, cy: 56, r: 20 }),
      svg("circle", { cx: 50, cy: 50, r: 12 }),
    );
  }
  group.append(svg("path", { d: suit === "J" ? STAR : (PATHS[suit] ?? "") }));
  return group;
}

function corner(rank: string, suit: string, colour: string): SVGGElement {
  const wide = rank.length > 1;
  const text = svg("text", {
    x: 13,
    y: 25,
    "text-anchor": "middle",
    "font-size": wide ? 20 : 24,
    "font-weight": 700,
    "font-family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    fill: colour,
    "letter-spacing": wide ? -2 : 0,
  });
  text.textContent = rank;
  return svg("g", {}, [text, suitShape(suit, 5, 30, 16, colour)]);
}

/** One card face, 100 × 140 units, scaled by its container. */
export function cardFace(card: string): SVGSVGElement {
  const root = svg("svg", { viewBox: "0 0 100 140", class: "card-face", "aria-hidden": "true" });
  root.append(svg("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, fill: "#fffdf8", stroke: "#8a8a8a", "stroke-width": 1.5 }));
  if (isJoker(card)) {
    const label = svg("text", {
      x: 50, y: 124, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: JOKER_COLOUR,
      "font-family": "system-ui, sans-serif",
    });
    label.textContent = card === "JK2" ? "JOKER 2" : "JOKER";
    root.append(suitShape("J", 20, 30, 60, JOKER_COLOUR), suitShape("J", 5, 6, 16, JOKER_COLOUR), label);
    return root;
  }
  const suit = suitOf(card) ?? "S";
  const rank = rankOf(card);
  const colour = SUIT_COLOUR[suit] ?? "#111";
  const top = corner(rank, suit, colour);
  const bottom = corner(rank, suit, colour);
  bottom.setAttribute("transform", "rotate(180 50 70)");
  root.append(top, bottom);
  if (["J", "Q", "K"].includes(rank)) {
    root.append(svg("rect", { x: 24, y: 28, width: 52, height: 84, rx: 5, fill: colour, "fill-opacity": 0.1, stroke: colour, "stroke-width": 1.5 }));
    const big = svg("text", {
      x: 50, y: 82, "text-anchor": "middle", "font-size": 40, "font-weight": 800, fill: colour,
      "font-family": "Georgia, 'Times New Roman', serif",
    });
    big.textContent = rank;
    root.append(big, suitShape(suit, 40, 88, 20, colour));
  } else {
    root.append(suitShape(suit, 25, 45, 50, colour));
  }
  return root;
}

/** The back of a card (another seat's hand), with how many it holds. */
export function cardBack(): SVGSVGElement {
  const root = svg("svg", { viewBox: "0 0 100 140", class: "card-back", "aria-hidden": "true" });
  root.append(
    svg("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, fill: "#20407a", stroke: "#f5f5f5", "stroke-width": 3 }),
    svg("rect", { x: 10, y: 10, width: 80, height: 120, rx: 5, fill: "none", stroke: "#9fb7e0", "stroke-width": 2 }),
    svg("path", { d: "M50 30L78 70L50 110L22 70Z", fill: "#9fb7e0", "fill-opacity": 0.6 }),
  );
  return root;
}

const SUIT_ORDER = "SHCD"; // alternating colours, as people hold them
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A"];

/** A hand sorted by suit (♠ ♥ ♣ ♦, jokers last), high cards first. */
export function sortHand(cards: string[]): string[] {
  const key = (card: string): [number, number] =>
    isJoker(card) ? [4, card === "JK" ? -1 : 0] : [SUIT_ORDER.indexOf(suitOf(card) ?? "S"), -RANKS.indexOf(rankOf(card))];
  return [...cards].sort((a, b) => {
    const [x1, y1] = key(a);
    const [x2, y2] = key(b);
    return x1 - x2 || y1 - y2;
  });
}

/** A small card face in a line of text (a review, a dialog), named for screen readers. */
export function miniCard(card: string): HTMLElement {
  const box = el("span", { class: "mini", role: "img", "aria-label": cardLabel(card) });
  box.append(cardFace(card));
  return box;
}
