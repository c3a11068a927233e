// The last deal trick by trick (the chat's "Last deal", drawn): each trick's cards in the order played with
// who played them, who took it, the deal's bids, tricks and points, and the hands as dealt once the match
// is over (the server sends them only then).
import { miniCard } from "./cards";
import { el } from "./dom";
import { t } from "./i18n";
import { rich } from "./markup";
import type { ReviewScreen, SeatScreen, SheetTable } from "./types";

export function sheetTable(sheet: SheetTable): HTMLElement {
  const table = el("table", { class: "deal-sheet" }, [el("caption", {}, rich(sheet.title))]);
  if (sheet.columns.length) {
    table.append(el("thead", {}, [el("tr", {}, [el("th", { text: "" }), ...sheet.columns.map((column) => el("th", { scope: "col", text: column }))])]));
  }
  const body = el("tbody");
  for (const row of sheet.rows) {
    body.append(el("tr", {}, [el("th", { scope: "row", text: row.name }), ...row.cells.map((cell) => el("td", { text: cell }))]));
  }
  table.append(body);
  return table;
}

export function reviewBody(review: ReviewScreen, seats: SeatScreen[]): (Node | null)[] {
  const name = (seat: number): string => seats.find((entry) => entry.index === seat)?.name ?? String(seat + 1);
  const tricks = el("ol", { class: "review-tricks", "aria-label": t("screen.last_deal") });
  for (const trick of review.tricks) {
    const cards = el("div", { class: "review-cards" });
    for (const played of trick.cards) {
      const won = played.seat === trick.winner;
      cards.append(el("figure", { class: won ? "won" : "" }, [miniCard(played.card), el("figcaption", { text: name(played.seat) })]));
    }
    tricks.append(el("li", {}, [el("span", { class: "number", text: String(trick.number) }), cards, el("span", { class: "winner", text: trick.text })]));
  }
  const hands = review.hands.map((hand) =>
    el("div", { class: "review-hand" }, [el("p", { text: hand.title }), el("div", { class: "row" }, hand.cards.map((card) => miniCard(card)))]),
  );
  return [
    review.sheet ? sheetTable(review.sheet) : null,
    review.sheet?.notes.length ? el("ul", { class: "notes" }, review.sheet.notes.map((note) => el("li", {}, rich(note)))) : null,
    tricks,
    ...hands,
  ];
}
