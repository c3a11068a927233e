// The table on screen, drawn again from each state the server sends (the seat's own view, or the public one).
import { SUIT_COLOUR, cardBack, cardFace, cardLabel, cardName, miniCard, sortHand, suitOf } from "./cards";
import { totalsChart } from "./chart";
import { timeLeft } from "./clock";
import { clear, el } from "./dom";
import { LANGUAGES, currentLanguage, t } from "./i18n";
import { rich } from "./markup";
import type { Connection } from "./net";
import { reviewBody, sheetTable } from "./review";
import type { ChoiceScreen, GameEntry, Played, ReviewScreen, TableChoice, TableScreen } from "./types";

/** What the new-table form holds, as the player left it: drawn again as it was (a reconnect, the room's list of
 *  tables changing and a language switch all draw the page again). */
interface FormValues {
  game: string;
  players: string;
  computers: string;
  level: string;
  quick: boolean;
  hints: boolean;
  options: Record<string, string | boolean>;
  open: boolean; // the options shown
}

/** A question the page asks before a move (which suit of a bid, which way to play a card, "sure?"): the actions
 *  it offers, and what it is about. Its words are the table's, read from the latest state at each drawing (a
 *  language switch, say, draws it in the new language). */
interface Step {
  actions: string[];
  about: { kind: "number"; number: number } | { kind: "card"; card: string } | { kind: "confirm" };
}

const HOLD_MS = 1500; // the longest a press holds the drawing still (a finger resting on the screen)
const PENDING_MS = 10_000; // the longest a move sent holds the controls (its answer always comes well before)

export class Page {
  table: TableScreen | null = null;
  private previous: TableScreen | null = null;
  games: GameEntry[] = [];
  tables: TableChoice[] = []; // the channel's open tables, when there are several
  local = true; // local mode: another table may be opened beside those of the room; in Discord, where there is none
  private selected: string | null = null;
  private step: Step | null = null;
  private picked = new Set<string>();
  private note = "";
  private noteTimer = 0;
  private connected = true;
  private stopped: string | null = null; // the page stopped for good (until reloaded): why, if the server said
  private detached = false; // the page is the name form's (signing in again): no table drawn until one comes
  private pending: { table: number; turn: number } | null = null; // a move sent, not yet answered
  private pendingTimer = 0;
  private creating = false; // a new table asked for: no second one until the server answers
  private formValues: FormValues | null = null; // the new-table form as the player left it (null: as it opens)
  private leaving: { cards: Played[]; winner: number | null } | null = null;
  private drawn: TableScreen | null = null; // the table as the screen shows it now (a drawing may be held back)
  private pressed = false; // a pointer or the space bar is down on the page: drawing again waits for its release
  private owed = false; // a state came while pressed: it is drawn once the press is let go
  private pressTimer = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly connection: () => Connection | null,
    private readonly switchLanguage: (language: string) => void,
  ) {
    window.setInterval(() => { this.tick(); }, 1000);
    // A state drawn between a button's press and its release would put a new button in its place, and the browser
    // drops a click whose press and release land on different elements: on a busy table, a tap lost. So a press
    // holds the drawing still until it is let go (at most HOLD_MS), and what came meanwhile is drawn then.
    root.addEventListener("pointerdown", () => { this.hold(); }, true);
    root.addEventListener("keydown", (event) => { if (event.key === " ") this.hold(); }, true);
    for (const name of ["pointerup", "pointercancel", "keyup"] as const) window.addEventListener(name, () => { this.letGo(); }, true);
    window.addEventListener("blur", () => { this.letGo(); });
  }

  private hold(): void {
    this.pressed = true;
    window.clearTimeout(this.pressTimer);
    this.pressTimer = window.setTimeout(() => { this.letGo(); }, HOLD_MS);
  }

  private letGo(): void {
    if (!this.pressed) return;
    this.pressed = false;
    window.clearTimeout(this.pressTimer);
    if (!this.owed) return;
    this.owed = false;
    window.setTimeout(() => { this.render(); }, 0); // after the click that the release makes
  }

  // ------------------------------------------------------------------ input from the server

  show(table: TableScreen | null): void {
    const before = this.table;
    const sent = this.pending;
    // The move sent is answered once this seat's turn moved on (or another table is shown): another seat's move
    // (bids made at once, a computer's) leaves it in flight, and the controls held
    if (sent && (table?.id !== sent.table || table.turn !== sent.turn)) this.answered();
    if (table) this.creating = false; // a table opened (a room's new list of tables is no answer to it)
    this.detached = false;
    if (movedOn(before, table)) this.quiet(); // a refusal or a hint of the screen before is stale now
    if (before && table && before.id === table.id) {
      const trickDone = (before.trick?.length ?? 0) > 0 && (table.trick?.length ?? 0) < (before.trick?.length ?? 0);
      this.leaving = trickDone && table.last_trick ? { cards: table.last_trick.cards, winner: table.last_trick.winner } : null;
      if (before.turn !== table.turn) {
        // this seat acted (or its time ran out): what it was choosing is done
        this.selected = null;
        this.step = null;
        this.picked.clear();
      } else if (before.actions !== table.actions) this.keepStillOffered(table); // another seat moved
    } else {
      this.leaving = null;
      this.selected = null;
      this.step = null;
      this.picked.clear();
    }
    this.previous = before;
    this.table = table;
    if (table) this.formValues = null; // a table here: a new one's form opens afresh
    // played, gone from the hand (or the dummy's cards), or the turn passed
    if (this.selected && !this.playable(this.selected)) this.selected = null;
    this.render();
  }

  /** Another seat moved while this one chooses (bids made at once, a computer's): the cards picked and the
   *  question asked stay while the table still offers them, so a half-made bid is not lost to someone else's. */
  private keepStillOffered(table: TableScreen): void {
    const choices = this.myChoices(table);
    const offered = new Set(choices.flatMap((choice) => choice.actions.map((entry) => entry.action)));
    if (this.step && !this.step.actions.every((action) => offered.has(action))) this.step = null;
    const cardsChoice = choices.find((choice) => choice.kind === "cards");
    const pickable = new Set(cardsChoice?.actions.flatMap((entry) => entry.action.split(" ").slice(1)) ?? []);
    if (!cardsChoice || [...this.picked].some((card) => !pickable.has(card)) || this.picked.size > cardsChoice.count) {
      this.picked.clear();
    }
  }

  /** The strong computer's advice, asked for with "Hint": said only while the screen still shows the table and
   *  the seat's turn it was asked for (a move made meanwhile makes it advice for a moment gone). */
  hint(table: number, turn: number, message: string): void {
    if (this.table?.id !== table || this.table.turn !== turn) return;
    this.say(message, 15000);
  }

  /** The last deal trick by trick, when the server sends it (asked for with "Last deal"). */
  showReview(review: ReviewScreen): void {
    const table = this.table;
    if (!table || table.id !== review.table) return;
    this.dialog(review.title, reviewBody(review, table.seats ?? []), "review");
  }

  /** A card the seat may play (or bid with) now, of its hand or of the dummy it plays for: the one a second tap
   * plays. */
  private playable(card: string): boolean {
    const table = this.table;
    if (!table) return false;
    return Boolean(this.cardEntry(table, card)?.actions.length);
  }

  private cardEntry(table: TableScreen, card: string): { card: string; actions: string[] } | undefined {
    return this.myChoices(table).find((choice) => choice.kind === "card")?.cards?.find((item) => item.card === card);
  }

  /** What the note line says: a message for a few seconds, else what a second tap on the card chosen does. */
  private noteText(): string {
    if (this.note) return this.note;
    if (!this.selected) return "";
    const table = this.table;
    const selected = this.selected;
    const bids = table ? this.cardEntry(table, selected)?.actions.every((action) => action.startsWith("bid ")) : false;
    const card = cardName(selected);
    // a bid made with a card says what it counts ("= 3"), as the chat's button does
    const counts = table ? this.myChoices(table).flatMap((choice) => choice.notes).find((note) => note.card === selected)?.text : undefined;
    return bids && counts ? t("screen.tap_again_bid", { card, counts }) : t("screen.tap_again", { card });
  }

  status(up: boolean): void {
    this.connected = up;
    // a move or a table sent before the drop may or may not have arrived: what the server sends once back says
    this.answered();
    this.creating = false;
    this.render();
  }

  /** The server refused something (a move, a new table…): said, and the controls held for it are free again. */
  refused(message: string): void {
    this.answered();
    this.creating = false;
    this.render();
    this.say(message);
  }

  /** The move sent is answered (or given up on): the controls are free again. */
  private answered(): void {
    this.pending = null;
    window.clearTimeout(this.pendingTimer);
  }

  /** The page is given to the name form (local mode, its session gone): the connection is down, and nothing of
   *  the table (a move's answer given up on, a press let go) is drawn over the form until a table comes again. */
  detach(): void {
    this.detached = true;
    this.connected = false;
    this.answered();
    this.creating = false;
  }

  /** Stopped for good (another window took the table, or the sign-in could not be made again): said until the
   *  page is reloaded, every control disabled. */
  stop(reason: string): void {
    this.stopped = reason;
    this.quiet();
    this.render();
  }

  /** The page now speaks another language: what was said in the one before goes, the rest is drawn again. */
  relanguage(): void {
    this.quiet();
    if (this.stopped) this.stopped = ""; // the server's words were in the language before: the page's own stay
    this.render();
  }

  /** The note line says nothing more of what came before (it still says how to play a chosen card). */
  private quiet(): void {
    this.note = "";
    window.clearTimeout(this.noteTimer);
  }

  say(text: string, seconds = 6000): void {
    this.note = text;
    window.clearTimeout(this.noteTimer);
    this.noteTimer = window.setTimeout(() => { this.note = ""; this.renderNote(); }, seconds);
    this.renderNote();
  }

  // ------------------------------------------------------------------ output to the server

  /** Whether the page may send now: the connection is up. Its controls are drawn disabled while it may not. */
  private live(): boolean {
    return this.connected && this.stopped === null;
  }

  /** Send a frame; false (and the note line says so) where it could not be sent: the caller keeps what it had. */
  private send(frame: Record<string, unknown>): boolean {
    if (this.live() && this.connection()?.send(frame)) return true;
    if (this.stopped === null) this.say(t("screen.not_sent"));
    return false;
  }

  /** A move, as the screen showed the table when pressed (if the table has moved on since, the server refuses it
   *  as stale). The controls are held until it is answered: a second tap sends nothing. */
  private act(action: string): void {
    const shown = this.drawn;
    const now = this.table;
    if (!shown || this.pending) return;
    // A press held the drawing still (see hold) while this seat's turn moved on (the move before it answered, its
    // time run out): the press was on a moment gone, and sends nothing (the drawing owed comes with its release).
    if (now?.id !== shown.id || now.turn !== shown.turn) return;
    if (!this.send({ op: "act", table: shown.id, action, turn: shown.turn })) return; // the card chosen, the step, stay
    this.pending = { table: shown.id, turn: shown.turn };
    window.clearTimeout(this.pendingTimer);
    this.pendingTimer = window.setTimeout(() => { this.answered(); this.render(); }, PENDING_MS);
    this.note = "";
    this.selected = null;
    this.step = null;
    this.picked.clear();
    this.render();
  }

  /** Whether the seat may make a move now: the page may send, and no move of its own is still unanswered. */
  private free(): boolean {
    return this.live() && this.pending === null;
  }

  // ------------------------------------------------------------------ drawing

  render(): void {
    if (this.detached) return;
    if (this.pressed) {
      this.owed = true;
      return;
    }
    const table = this.table;
    this.drawn = table;
    // The keyboard's focus, drawn again where it was: on the same control, else (the card played, the bid made)
    // on the card now at the same place in the hand, else on the first control of the seat's move.
    const active = document.activeElement;
    const inside = active instanceof HTMLElement && active !== this.root && this.root.contains(active);
    const focused = inside ? active.dataset.key : undefined;
    const cardAt = inside ? Array.from(this.root.querySelectorAll(".hand .card")).indexOf(active) : -1;
    clear(this.root);
    this.root.append(this.topBar());
    if (this.stopped !== null) {
      this.root.append(el("div", { class: "banner stopped", role: "alert" }, [
        this.stopped ? el("p", {}, rich(this.stopped)) : null,
        el("p", { text: t("screen.stopped") }),
      ]));
    } else if (!this.connected) this.root.append(el("div", { class: "banner", role: "status", text: t("screen.reconnecting") }));
    if (table === null) {
      if (this.tables.length) this.root.append(this.chooser());
      // A new table: always in local mode; in Discord where the channel has none (the chat table posts it there)
      if (this.local || !this.tables.length) this.root.append(this.lobbyForm());
      if (!this.local && !this.tables.length) this.root.append(el("p", { class: "muted", text: t("screen.announced") }));
    }
    else if (table.lobby) this.root.append(this.lobby(table));
    else this.root.append(this.playing(table));
    this.root.append(el("div", { class: "note", id: "note", role: "status", "aria-live": "polite" }, rich(this.noteText())));
    if (inside) {
      const cards = Array.from(this.root.querySelectorAll<HTMLElement>(".hand .card"));
      const again =
        (focused ? this.root.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]`) : null) ??
        (cardAt >= 0 ? cards[Math.min(cardAt, cards.length - 1)] : undefined) ??
        this.root.querySelector<HTMLElement>(".controls button") ??
        cards[0];
      again?.focus();
    }
    this.tick();
  }

  private renderNote(): void {
    const note = this.root.querySelector("#note");
    note?.replaceChildren(...rich(this.noteText())); // a refusal or a hint: the catalogue's words, bold kept
  }

  private topBar(): HTMLElement {
    const table = this.table;
    const other = LANGUAGES.find((code) => code !== currentLanguage()) ?? "en";
    const buttons: HTMLElement[] = [];
    if (table?.seats) {
      buttons.push(this.button(t("screen.sheet"), () => { this.openSheet(); }, "ghost", "sheet"));
      if (table.last_trick) buttons.push(this.button(t("screen.last_trick"), () => { this.openLastTrick(); }, "ghost", "last"));
      if (table.sheet && table.status !== "finished") buttons.push(this.reviewButton(table, "ghost"));
    }
    buttons.push(this.button(t("screen.other_language"), () => { this.switchLanguage(other); }, "ghost", "language"));
    const lines = [el("h1", { text: table?.title ?? "Trick Table" })];
    if (table?.turn_line) {
      lines.push(el("p", { class: "turn-line" }, [table.turn_line, " ", el("span", { class: "clock", "data-clock": "1" })]));
    }
    return el("header", { class: "top" }, [el("div", { class: "titles" }, lines), el("nav", {}, buttons)]);
  }

  private reviewButton(table: TableScreen, kind: string): HTMLButtonElement {
    return this.control(t("screen.last_deal"), () => { this.send({ op: "review", table: table.id }); }, kind, "review");
  }

  /** A button: its words the page's own (`text`), or the server's drawn with their marks (`rich(label)`). */
  private button(text: string | (Node | string)[], onClick: () => void, kind = "", key = "", disabled = false): HTMLButtonElement {
    const words = typeof text === "string" ? [text] : text;
    const button = el("button", { class: `btn ${kind}`, type: "button", "data-key": key || undefined, disabled }, words);
    button.addEventListener("click", onClick);
    return button;
  }

  /** A button that moves the table (it sends, or leads to a move): drawn disabled while the page may not send,
   *  and a press then only says why (aria-disabled, not disabled: it keeps the keyboard's focus). */
  private control(text: string | (Node | string)[], onClick: () => void, kind = "", key = "", disabled = false): HTMLButtonElement {
    const button = this.button(text, () => { if (this.ready()) onClick(); }, kind, key, disabled);
    if (!this.live()) button.setAttribute("aria-disabled", "true");
    return button;
  }

  /** A control of the seat's move (a bid, a word, a step, a confirm): held as well while a move is unanswered. */
  private moveControl(text: string | (Node | string)[], onClick: () => void, kind = "", key = ""): HTMLButtonElement {
    const button = this.button(text, () => { if (this.ready(true)) onClick(); }, kind, key);
    if (!this.free()) button.setAttribute("aria-disabled", "true");
    return button;
  }

  /** Whether a control's press may go on now; if not, the note line says why (when stopped, the banner does;
   *  a move still unanswered needs no words: its answer is on its way). */
  private ready(move = false): boolean {
    if (!this.live()) {
      if (this.stopped === null) this.say(t("screen.not_sent"));
      return false;
    }
    return !move || this.pending === null;
  }

  // ------------------------------------------------------------------ several tables in the channel: which one

  private chooser(): HTMLElement {
    const list = el("ul", { class: "choose" });
    for (const table of this.tables) {
      const button = this.control(table.title, () => { this.send({ op: "watch", table: table.id }); }, "primary", `table-${table.id}`);
      list.append(el("li", {}, [button, el("span", { class: "muted", text: table.seated })]));
    }
    return el("section", { class: "panel" }, [el("h2", { text: t("screen.choose_table") }), list]);
  }

  // ------------------------------------------------------------------ the lobby form (no table here yet)

  private lobbyForm(): HTMLElement {
    const games = this.games;
    const form = el("form", { class: "panel form", "aria-label": t("screen.no_table") });
    const gameSelect = el("select", { id: "game", name: "game", "data-key": "form-game" });
    for (const game of games) gameSelect.append(el("option", { value: game.name, text: game.label }));
    const players = el("select", { id: "players", name: "players", "data-key": "form-players" });
    const computers = el("select", { id: "computers", name: "computers", "data-key": "form-computers" });
    const level = el("select", { id: "level", name: "level", "data-key": "form-level" }, [
      el("option", { value: "easy", text: t("level.easy") }),
      el("option", { value: "strong", text: t("level.strong") }),
    ]);
    const quick = el("input", { type: "checkbox", id: "quick", checked: true, "data-key": "form-quick" });
    const hints = el("input", { type: "checkbox", id: "hints", "data-key": "form-hints" });
    const options = el("div", { class: "options" });
    const chosen = (): GameEntry | undefined => games.find((game) => game.name === gameSelect.value);
    const refresh = (): void => {
      const game = chosen();
      if (!game) return;
      clear(players);
      for (const count of game.players) {
        players.append(el("option", { value: count, text: String(count), selected: count === game.default_players }));
      }
      computers.value = "";
      refreshComputers();
      clear(options);
      for (const option of game.options) options.append(optionField(option.name, option));
      showCounting(options, game);
    };
    const refreshComputers = (): void => {
      const count = Number(players.value);
      const keep = computers.value;
      clear(computers);
      for (let n = 0; n < count; n += 1) computers.append(el("option", { value: n, text: String(n) }));
      computers.value = keep && Number(keep) < count ? keep : String(count - 1);
    };
    const applyQuick = (): void => {
      const game = chosen();
      if (!game || !quick.checked) return;
      for (const [name, value] of Object.entries(game.quick)) {
        const input = options.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`);
        if (input instanceof HTMLInputElement && input.type === "checkbox") input.checked = value === true;
        else if (input) input.value = String(value);
      }
      showCounting(options, game);
    };
    quick.addEventListener("change", () => {
      if (quick.checked) applyQuick();
      else for (const option of chosen()?.options ?? []) resetOption(options, option);
      const game = chosen();
      if (game) showCounting(options, game);
    });
    options.addEventListener("change", () => {
      const game = chosen();
      if (game) showCounting(options, game);
    });
    gameSelect.addEventListener("change", () => { refresh(); applyQuick(); });
    players.addEventListener("change", refreshComputers);
    const details = el("details", {}, [el("summary", { text: t("screen.options"), "data-key": "form-options" }), options]);
    const label = (text: string, control: HTMLElement, id: string): HTMLElement =>
      el("label", { for: id }, [el("span", { text }), control]);
    form.append(
      el("h2", { text: t("screen.no_table") }),
      label(t("screen.game"), gameSelect, "game"),
      label(t("screen.players"), players, "players"),
      label(t("screen.computers"), computers, "computers"),
      label(t("screen.level"), level, "level"),
      el("label", { class: "check", for: "quick" }, [quick, el("span", { text: t("screen.quick") })]),
      el("label", { class: "check", for: "hints" }, [hints, el("span", { text: t("screen.hints") })]),
      details,
      el("button", {
        class: "btn primary",
        type: "submit",
        text: t("screen.create"),
        "data-key": "create",
        "aria-disabled": this.live() && !this.creating ? undefined : "true",
      }),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const game = chosen();
      // this.table: a table came while a press held the form still (a second tap on "Open"): the form is gone
      if (!game || this.creating || this.table !== null || !this.ready()) return;
      const picked: Record<string, boolean | number | string> = {};
      for (const option of game.options) {
        const input = options.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${option.name}"]`);
        if (!input) continue;
        const value =
          option.kind === "bool" ? (input as HTMLInputElement).checked : option.kind === "int" ? Number(input.value) : input.value;
        if (value !== option.default) picked[option.name] = value;
      }
      const count = Number(players.value);
      this.creating = this.send({
        op: "open",
        game: game.name,
        options: picked,
        players: count,
        computers: Array.from({ length: Number(computers.value) }, () => level.value),
        hints: hints.checked,
      });
      if (this.creating) form.querySelector("[data-key=create]")?.setAttribute("aria-disabled", "true");
    });
    refresh();
    applyQuick();
    const kept = this.formValues;
    if (kept && games.some((game) => game.name === kept.game)) {
      gameSelect.value = kept.game;
      refresh();
      choose(players, kept.players);
      refreshComputers();
      choose(computers, kept.computers);
      choose(level, kept.level);
      quick.checked = kept.quick;
      hints.checked = kept.hints;
      for (const [name, value] of Object.entries(kept.options)) {
        const input = options.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`);
        if (input instanceof HTMLInputElement && input.type === "checkbox") input.checked = value === true;
        else if (input instanceof HTMLSelectElement) choose(input, String(value));
        else if (input) input.value = String(value);
      }
      details.open = kept.open;
      const game = chosen();
      if (game) showCounting(options, game);
    }
    const keep = (): void => {
      const values: Record<string, string | boolean> = {};
      for (const input of options.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[name]")) {
        values[input.name] = input instanceof HTMLInputElement && input.type === "checkbox" ? input.checked : input.value;
      }
      this.formValues = {
        game: gameSelect.value,
        players: players.value,
        computers: computers.value,
        level: level.value,
        quick: quick.checked,
        hints: hints.checked,
        options: values,
        open: details.open,
      };
    };
    form.addEventListener("change", keep);
    form.addEventListener("input", keep);
    details.addEventListener("toggle", keep);
    return form;
  }

  // ------------------------------------------------------------------ a table's lobby

  private lobby(table: TableScreen): HTMLElement {
    const lobby = table.lobby;
    if (!lobby) return el("div");
    if (table.status === "abandoned") return this.closedPanel();
    const seats = el("ol", { class: "seats-list" });
    for (const seat of lobby.seats) {
      const item = el("li", {}, [el("span", { class: "name", text: seat.name })]);
      if (seat.host) item.append(el("span", { class: "tag", text: t("screen.host") }));
      if (seat.computer && lobby.host) {
        item.append(this.control(t("screen.remove"), () => { this.send({ op: "uncomputer", table: table.id, key: seat.key }); }, "small", `rm-${seat.key}`));
      }
      seats.append(item);
    }
    // Join and the computers only while a seat is left (the service refuses them on a full table)
    const actions: HTMLElement[] = [];
    if (lobby.seated) actions.push(this.control(t("screen.leave"), () => { this.send({ op: "leave", table: table.id }); }, "", "leave"));
    else if (!lobby.full) actions.push(this.control(t("screen.join"), () => { this.send({ op: "join", table: table.id }); }, "primary", "join"));
    if (lobby.host && !lobby.full) {
      actions.push(
        this.control(t("screen.add_easy"), () => { this.send({ op: "computer", table: table.id, level: "easy" }); }, "", "easy"),
        this.control(t("screen.add_strong"), () => { this.send({ op: "computer", table: table.id, level: "strong" }); }, "", "strong"),
      );
    }
    if (lobby.host) actions.push(this.control(t("screen.start"), () => { this.send({ op: "start", table: table.id }); }, "primary", "start"));
    return el("section", { class: "panel lobby" }, [
      el("h2", { text: t("screen.seated", { count: lobby.seats.length }) }),
      seats,
      lobby.full && !lobby.seated ? el("p", { class: "muted", text: t("error.table_full", { players: lobby.most }) }) : null,
      el("div", { class: "row" }, actions),
      lobby.host ? null : el("p", { class: "muted", text: t("screen.waiting_host") }),
      el("details", {}, [el("summary", { text: t("screen.options") }), el("ul", {}, lobby.options.map((line) => el("li", { text: line })))]),
    ]);
  }

  private closedPanel(): HTMLElement {
    return el("section", { class: "panel" }, [
      el("p", { text: t("screen.closed") }),
      this.control(t("screen.new_table"), () => { this.send({ op: "watch", table: null }); }, "primary", "new"),
    ]);
  }

  // ------------------------------------------------------------------ the match

  private playing(table: TableScreen): HTMLElement {
    if (table.status === "finished") return el("main", { class: "match over" }, [this.finalPanel(table)]);
    const main = el("main", { class: "match" });
    main.append(this.felt(table));
    const info = el("div", { class: "info" });
    for (const line of table.header ?? []) info.append(el("p", {}, rich(line)));
    for (const line of table.hand_notes ?? []) info.append(el("p", { class: "mine" }, rich(line)));
    const apart = this.dummyCards(table);
    for (const shown of table.face_up ?? []) {
      // the dummy's cards offered to play below are not listed here again
      if (apart.length && shown.cards.length === apart.length && shown.cards.every((card) => apart.includes(card))) continue;
      info.append(el("div", { class: "face-up" }, [el("span", {}, rich(shown.title)), ...shown.cards.map((c) => miniCard(c))]));
    }
    if (table.seat === null && table.status === "playing") info.append(el("p", { class: "muted", text: t("screen.watching") }));
    main.append(info);
    if (table.status === "abandoned") main.append(this.closedPanel());
    else main.append(this.controls(table));
    if (table.seat !== null) main.append(this.hand(table));
    return main;
  }

  private direction(table: TableScreen, seat: number): [number, number] {
    const count = table.seats?.length ?? 4;
    const base = table.seat ?? 0;
    const turn = ((seat - base + count) % count) / count;
    const angle = Math.PI / 2 + turn * 2 * Math.PI;
    return [Math.cos(angle), Math.sin(angle)];
  }

  private felt(table: TableScreen): HTMLElement {
    const count = table.seats?.length ?? 4;
    const crowded = count >= 7;
    const felt = el("section", { class: `felt${crowded ? " crowded" : ""}`, "aria-label": t("screen.trick") });
    for (const seat of table.seats ?? []) {
      const [dx, dy] = this.direction(table, seat.index);
      const plate = el("div", {
        // a plate at the top or bottom of the felt may be wider than one held against a side (clear of the trick)
        class: `plate ${Math.abs(dx) > 0.6 ? "side" : Math.abs(dx) < 0.3 ? "end" : "corner"}${seat.acting ? " acting" : ""}${seat.me ? " me" : ""}`,
        style: plateAt(dx, dy, count),
        "data-seat": seat.index,
      });
      const name = el("div", { class: "name", text: seat.name });
      if (seat.me) name.append(el("span", { class: "you", text: ` (${t("screen.you")})` }));
      plate.title = seat.label;
      // each part kept whole, and the dot kept with the part before it: a line breaks only between parts
      const parts = el("div", { class: "parts" }, seat.parts.flatMap((part, at) => [at ? "\u00a0· " : "", el("span", {}, rich(part))]));
      const backs = !seat.me && seat.cards > 0
        ? el("div", { class: "backs", title: t("screen.cards_left", { count: seat.cards }) }, [cardBack(), el("span", { text: String(seat.cards) })])
        : null;
      // at a crowded table the cards left end the line of parts: a line less on most plates, room for nine on a phone
      if (crowded && backs) parts.append(" ", backs);
      plate.append(name, parts, ...(backs && !crowded ? [backs] : []));
      if (seat.acting) plate.append(el("div", { class: "clock", "data-clock": "1" }));
      felt.append(plate);
    }
    // how far from the middle a played card lies, up and down: less at a crowded table, clear of the plates above
    const rise = crowded ? 16 : 19;
    const before = this.previous?.id === table.id ? this.previous.trick ?? [] : [];
    const trick = table.trick ?? [];
    trick.forEach((played, order) => {
      const [dx, dy] = this.direction(table, played.seat);
      const fresh = !before.some((old) => old.card === played.card);
      const card = el("div", {
        class: `trick-card${fresh ? " arrive" : ""}`,
        style: `left:${50 + this.spread() * dx}%;top:${50 + rise * dy}%;--dx:${dx * 220}px;--dy:${dy * 220}px;z-index:${order + 1}`,
        "aria-label": cardLabel(played.card),
        role: "img",
      });
      card.append(cardFace(played.card));
      felt.append(card);
    });
    if (this.leaving && trick.length === 0) {
      const winner = this.leaving.winner;
      const [wx, wy] = winner === null ? [0, 0] : this.direction(table, winner);
      for (const played of this.leaving.cards) {
        const [dx, dy] = this.direction(table, played.seat);
        const card = el("div", {
          class: "trick-card leave",
          style: `left:${50 + this.spread() * dx}%;top:${50 + rise * dy}%;--wx:${wx * 260 - dx * 60}px;--wy:${wy * 260 - dy * 60}px`,
          "aria-hidden": "true",
        });
        card.append(cardFace(played.card));
        felt.append(card);
      }
      this.leaving = null;
    }
    return felt;
  }

  /** How far from the middle a played card lies, across: less on a narrow screen, clear of the side seats. */
  private spread(): number {
    return this.root.clientWidth < 600 ? 12 : 17;
  }

  /** A long list of cards to name (Five Hundred's called card), a row of small buttons a suit, high cards first, each
   *  saying its whole action to a screen reader; the list's other actions (going alone) as buttons above. */
  private cardList(choice: ChoiceScreen): HTMLElement {
    const named = new Map((choice.list_cards ?? []).map((entry) => [entry.card, entry.action] as const));
    const labels = new Map(choice.actions.map((entry) => [entry.action, entry.label] as const));
    const box = el("div", { class: "card-list" });
    const others = el("div", { class: "row" });
    for (const entry of choice.actions) {
      if ([...named.values()].includes(entry.action)) continue;
      others.append(this.moveControl(rich(entry.label), () => { this.act(entry.action); }, "primary", `a-${entry.action}`));
    }
    if (others.childElementCount) box.append(others);
    const rows = new Map<string, HTMLElement>();
    for (const card of sortHand([...named.keys()])) {
      const suit = suitOf(card) ?? "J";
      let row = rows.get(suit);
      if (!row) {
        row = el("div", { class: "row suit-row", role: "group", "aria-label": suit === "J" ? t("card.joker") : t(`suit.${suit}`) });
        rows.set(suit, row);
        box.append(row);
      }
      const action = named.get(card) ?? "";
      const button = this.moveControl(cardName(card), () => { this.act(action); }, "chip", `a-${action}`);
      button.style.color = SUIT_COLOUR[suit] ?? "#6b3fa0"; // (the joker purple, as drawn)
      button.setAttribute("aria-label", plain(labels.get(action) ?? cardName(card)));
      row.append(button);
    }
    return box;
  }

  private myChoices(table: TableScreen): ChoiceScreen[] {
    return table.choices ?? [];
  }

  private controls(table: TableScreen): HTMLElement {
    const choices = this.myChoices(table);
    const mine = this.step !== null || (choices.length > 0 && table.seat !== null);
    const box = el("section", { class: "controls", "aria-label": mine ? t("screen.your_turn") : undefined });
    if (this.step) {
      box.append(el("p", { class: "prompt" }, rich(this.stepText(this.step, choices))));
      const labels = new Map(choices.flatMap((choice) => choice.actions.map((entry) => [entry.action, entry.label] as const)));
      const row = el("div", { class: "row" });
      for (const action of this.step.actions) {
        row.append(this.moveControl(rich(labels.get(action) ?? action), () => { this.act(action); }, "primary", `step-${action}`));
      }
      row.append(this.button(t("screen.back"), () => { this.step = null; this.render(); }, "", "back"));
      box.append(row);
      return box;
    }
    if (choices.length && table.seat !== null) {
      const line = el("div", { class: "row" }, [el("p", { class: "your-turn", text: t("screen.your_turn") })]);
      if (table.hints) line.append(this.control(t("screen.hint"), () => { this.send({ op: "hint", table: table.id }); }, "small", "hint"));
      box.append(line);
    }
    for (const choice of choices) {
      if (choice.prompt) box.append(el("p", { class: "prompt" }, rich(choice.prompt)));
      const row = el("div", { class: "row" });
      if (choice.kind === "number") {
        for (const number of choice.numbers ?? []) {
          row.append(
            this.moveControl(rich(number.label), () => {
              if (number.actions.length === 1 && number.actions[0]) this.act(number.actions[0]);
              else this.offer({ kind: "number", number: number.number }, choice, number.actions);
            }, "number", `n-${number.number}`),
          );
        }
      } else if (choice.kind === "list" && choice.list_cards?.length) {
        box.append(row, this.cardList(choice));
        continue;
      } else if (choice.kind === "word" || choice.kind === "list") {
        for (const action of choice.actions) {
          const confirm = choice.confirm.find((entry) => entry.action === action.action);
          row.append(
            this.moveControl(rich(action.label), () => {
              if (confirm) {
                this.step = { about: { kind: "confirm" }, actions: [action.action] };
                this.render();
              } else this.act(action.action);
            }, "primary", `a-${action.action}`),
          );
        }
      } else if (choice.kind === "card") {
        // cards of the choice not in the seat's hand: the dummy's it plays for (two-player Ninety-Nine), tapped
        // as the hand's are
        const apart = this.dummyCards(table);
        if (apart.length) {
          const group = el("div", { class: "hand apart", role: "group", "aria-label": t("screen.dummy_cards"), style: `--count:${apart.length}` });
          apart.forEach((card, position) => { group.append(this.cardButton(card, position, this.playable(card), group)); });
          box.append(el("p", { class: "muted", text: t("screen.dummy_cards") }), group);
        }
      } else {
        const wanted = this.pickedAction(choice); // "cards": several to pick
        // what to do now, as the chat's hand says it: pick the cards; once they make an action, check and confirm it
        const now = wanted ? t("hand.confirm") : t("screen.pick_cards", { count: choice.count });
        row.append(el("span", { class: "muted pick", text: now }));
        for (const card of this.picked) {
          const note = choice.notes.find((entry) => entry.card === card);
          // the card and what it counts, as the chat's buttons say it: "10♠ = 1"
          if (note) row.append(el("span", { class: "tag" }, [`${cardName(card)} `, ...rich(note.text)]));
        }
        const label = wanted ? rich(wanted.label) : t("screen.confirm");
        const confirm = this.moveControl(label, () => { if (wanted) this.act(wanted.action); }, "primary", "confirm");
        confirm.disabled = !wanted;
        row.append(confirm);
      }
      if (row.childElementCount) box.append(row);
    }
    return box;
  }

  /** The cards the seat may play now that are not in its hand: the dummy's, in two-player Ninety-Nine. */
  private dummyCards(table: TableScreen): string[] {
    const own = new Set(table.hand ?? []);
    const choice = this.myChoices(table).find((entry) => entry.kind === "card");
    return sortHand((choice?.cards ?? []).map((entry) => entry.card).filter((card) => !own.has(card)));
  }

  private offer(about: Step["about"], choice: ChoiceScreen, actions: string[]): void {
    this.step = { about, actions: choice.actions.filter((entry) => actions.includes(entry.action)).map((entry) => entry.action) };
    this.render();
  }

  /** A step's question, in the words of the table as it is now. */
  private stepText(step: Step, choices: ChoiceScreen[]): string {
    const about = step.about;
    if (about.kind === "card") return cardName(about.card);
    if (about.kind === "number") {
      return choices.flatMap((choice) => choice.numbers ?? []).find((entry) => entry.number === about.number)?.label ?? "";
    }
    return choices.flatMap((choice) => choice.confirm).find((entry) => entry.action === step.actions[0])?.text ?? "";
  }

  private pickedAction(choice: ChoiceScreen): { action: string; label: string } | undefined {
    const picked = [...this.picked].sort().join(" ");
    return choice.actions.find((entry) => entry.action.split(" ").slice(1).sort().join(" ") === picked);
  }

  private hand(table: TableScreen): HTMLElement {
    const cards = sortHand(table.hand ?? []);
    const choices = this.myChoices(table);
    const cardChoice = choices.find((choice) => choice.kind === "card");
    const cardsChoice = choices.find((choice) => choice.kind === "cards");
    const pickable = new Set(cardsChoice ? cardsChoice.actions.flatMap((entry) => entry.action.split(" ").slice(1)) : []);
    const hand = el("section", { class: "hand", role: "group", "aria-label": t("screen.hand"), style: `--count:${Math.max(cards.length, 1)}` });
    cards.forEach((card, position) => {
      const entry = cardChoice?.cards?.find((item) => item.card === card);
      hand.append(this.cardButton(card, position, Boolean(entry?.actions.length) || pickable.has(card), hand));
    });
    return hand;
  }

  /** A card to tap, in the hand (or the dummy's cards beside it): chosen on the first tap, played on the second. */
  private cardButton(card: string, position: number, playable: boolean, group: HTMLElement): HTMLElement {
    const chosen = this.selected === card || this.picked.has(card);
    const button = el("button", {
      type: "button",
      class: `card${playable ? "" : " dim"}${chosen ? " chosen" : ""}${this.free() ? "" : " blocked"}`,
      "aria-label": cardLabel(card),
      "aria-pressed": chosen ? "true" : "false",
      "aria-disabled": this.free() && playable ? undefined : "true", // still focusable: a tap says the rule
      "data-key": `card-${card}`,
      "data-card": card,
      style: `--i:${position}`,
    });
    button.append(cardFace(card));
    button.addEventListener("click", () => { this.tap(card); });
    button.addEventListener("keydown", (event) => { this.arrows(event, group); });
    return button;
  }

  private arrows(event: KeyboardEvent, hand: HTMLElement): void {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const buttons = Array.from(hand.querySelectorAll<HTMLButtonElement>("button.card"));
    const at = buttons.indexOf(event.target as HTMLButtonElement);
    const next = buttons[(at + (event.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length];
    next?.focus();
    event.preventDefault();
  }

  /** Tap a card to choose it, tap it again to play it; a card that may not be played says why. */
  private tap(card: string): void {
    const table = this.table;
    if (!table || !this.ready(true)) return;
    const choices = this.myChoices(table);
    const cardsChoice = choices.find((choice) => choice.kind === "cards");
    if (cardsChoice && cardsChoice.actions.some((entry) => entry.action.split(" ").slice(1).includes(card))) {
      if (this.picked.has(card)) this.picked.delete(card);
      else if (this.picked.size < cardsChoice.count) this.picked.add(card);
      this.render();
      return;
    }
    const cardChoice = choices.find((choice) => choice.kind === "card");
    const entry = cardChoice?.cards?.find((item) => item.card === card);
    if (!entry || entry.actions.length === 0) {
      if (cardChoice) this.act(`play ${card}`); // refused by the rules: the server says which rule, and nothing changes
      else this.say(choices[0]?.prompt ?? t("error.not_your_turn"));
      return;
    }
    if (this.selected !== card) {
      this.selected = card;
      this.note = ""; // the note line now says how to play it (see noteText)
      this.render();
      return;
    }
    const only = entry.actions[0];
    if (entry.actions.length === 1 && only) this.act(only);
    else if (cardChoice) this.offer({ kind: "card", card }, cardChoice, entry.actions);
  }

  private finalPanel(table: TableScreen): HTMLElement {
    const final = table.final;
    const list = el("ol", { class: "final" });
    for (const row of final?.standings ?? []) {
      list.append(el("li", { class: row.winner ? "winner" : "" }, [
        el("span", { class: "place", text: row.place === null ? "–" : `${row.place}.` }),
        el("span", { class: "who" }, [
          el("span", { class: "name", text: row.name }),
          row.winner ? el("span", { class: "tag gold", text: t("screen.winner") }) : null,
          row.rating ? el("span", { class: "rating", text: row.rating }) : null,
        ]),
        el("span", { class: "score", text: String(row.score) }),
      ]));
    }
    return el("section", { class: "panel final-panel" }, [
      el("h2", { text: t("screen.final") }),
      el("div", { class: "final-body" }, [
        el("div", {}, [list, final?.unrated ? el("p", { class: "muted", text: final.unrated }) : null]),
        final?.chart ? totalsChart(final.chart, this.root.clientWidth < 600) : null,
      ]),
      el("div", { class: "row" }, [
        table.sheet ? this.reviewButton(table, "") : null,
        this.control(t("screen.new_table"), () => { this.send({ op: "watch", table: null }); }, "primary", "new"),
      ]),
    ]);
  }

  // ------------------------------------------------------------------ dialogs

  private dialog(title: string, body: (Node | null)[], kind = ""): void {
    for (const open of document.querySelectorAll("dialog.sheet")) open.remove(); // one at a time
    const dialog = el("dialog", { class: `sheet ${kind}`, "aria-label": title }, [el("h2", { text: title }), ...body]);
    const close = this.button(t("screen.close"), () => { dialog.close(); dialog.remove(); }, "primary", "close");
    dialog.append(close);
    dialog.addEventListener("close", () => { dialog.remove(); });
    document.body.append(dialog);
    dialog.showModal();
    close.focus({ preventScroll: true }); // a long review opens at its top, its title and sheet in view
    dialog.scrollTop = 0;
  }

  private openSheet(): void {
    const table = this.table;
    if (!table) return;
    const scores = el("table", { class: "scores" }, [
      el("caption", { text: t("screen.scores") }),
      ...(table.seats ?? []).map((seat) =>
        el("tr", {}, [el("th", { scope: "row", text: seat.name }), el("td", { text: String(table.scores?.[seat.index] ?? 0) })]),
      ),
    ]);
    const sheet = table.sheet;
    this.dialog(t("screen.sheet"), [
      scores,
      sheet ? sheetTable(sheet) : el("p", { class: "muted", text: t("screen.no_sheet") }),
      sheet?.notes.length ? el("ul", { class: "notes" }, sheet.notes.map((note) => el("li", {}, rich(note)))) : null,
    ]);
  }

  private openLastTrick(): void {
    const last = this.table?.last_trick;
    const seats = this.table?.seats ?? [];
    if (!last) return;
    const row = el("div", { class: "last-trick" });
    for (const played of last.cards) {
      const name = seats.find((seat) => seat.index === played.seat)?.name ?? "";
      row.append(el("figure", {}, [miniCard(played.card), el("figcaption", { text: name })]));
    }
    this.dialog(t("screen.last_trick"), [row, el("p", { text: last.text })]);
  }

  // ------------------------------------------------------------------ the clock

  private tick(): void {
    const ends = this.table?.turn_ends;
    const left = ends ? Math.max(0, Math.round((Date.parse(ends) - Date.now()) / 1000)) : null;
    for (const clock of this.root.querySelectorAll<HTMLElement>("[data-clock]")) {
      clock.textContent = left === null ? "" : timeLeft(left);
    }
  }
}

/** Whether the screen has moved on from `before` to `after`, so that what the note line said of it (a refusal,
 * a hint) no longer holds: another table or none, the lobby changed (a seat taken or freed) or left (the match
 * started), a new phase (bids done), the match over, or the seat's own move made. Another seat's move alone is
 * not: a refusal said while the others play stays its few seconds. */
function movedOn(before: TableScreen | null, after: TableScreen | null): boolean {
  if (!before || !after || before.id !== after.id || before.status !== after.status) return before !== after;
  if (after.lobby) return before.version !== after.version;
  return before.phase !== after.phase || before.turn !== after.turn;
}

/** Where a seat's plate sits on the felt: round the table, the side seats held against its edges. */
/** Where a seat's plate sits on the felt, from its direction (`dx`, `dy`: the unit circle, the reader's seat at the
 *  bottom) among `count` seats. A plate against a side is moved in from the felt's rounded rim where the rim curves
 *  (near the top and bottom corners it cut the plate's corner off); at a crowded table (7 seats or more) the two
 *  plates either side of the top spread further apart (at 9 seats on a phone they lay over each other). */
function plateAt(dx: number, dy: number, count: number): string {
  const top = `top:${50 + 38 * dy}%`;
  if (Math.abs(dx) > 0.6) {
    const inset = rimInset(Math.abs(38 * dy) + PLATE_HALF_HEIGHT);
    return `${top};${dx > 0 ? "right" : "left"}:calc(0.4rem + ${inset.toFixed(1)}%);transform:translate(0,-50%)`;
  }
  const spread = count >= 9 ? 1.45 : count >= 7 ? 1.25 : 1;
  return `${top};left:${50 + 36 * dx * spread}%`;
}

const PLATE_HALF_HEIGHT = 7; // about half a plate's height, in hundredths of the felt's height
/** How far in from the felt's side its rim lies (hundredths of its width) at `offset` hundredths of its height from
 *  the middle, up or down: the felt's corners are quarter ellipses of 45% of its width by 30% of its height. */
function rimInset(offset: number): number {
  const into = Math.min(1, Math.max(0, (offset - 20) / 30));
  return 45 * (1 - Math.sqrt(1 - into * into));
}

/** A catalogue text without its marks, as a screen reader's label. */
function plain(text: string): string {
  return rich(text).map((node) => (typeof node === "string" ? node : node.textContent ?? "")).join("");
}

/** Choose `value` in a list, where the list offers it. */
function choose(select: HTMLSelectElement, value: string): void {
  if (Array.from(select.options).some((option) => option.value === value)) select.value = value;
}

/** Each option's field shown only where the option changes the game beside the others as the form has them
 *  (Ninety-Nine's target only with the format played to a target). */
function showCounting(box: HTMLElement, game: GameEntry): void {
  const values: Record<string, boolean | number | string> = {};
  for (const option of game.options) {
    const input = box.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${option.name}"]`);
    if (!input) continue;
    values[option.name] =
      option.kind === "bool" ? (input as HTMLInputElement).checked : option.kind === "int" ? Number(input.value) : input.value;
  }
  for (const option of game.options) {
    const field = box.querySelector<HTMLElement>(`label[for="option-${option.name}"]`);
    const counts = option.needs.every((need) => need.values.includes(values[need.name] ?? ""));
    if (field) field.hidden = !counts;
  }
}

function resetOption(box: HTMLElement, option: GameEntry["options"][number]): void {
  const input = box.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${option.name}"]`);
  if (input instanceof HTMLInputElement && input.type === "checkbox") input.checked = option.default === true;
  else if (input) input.value = String(option.default);
}

function optionField(name: string, option: GameEntry["options"][number]): HTMLElement {
  const id = `option-${name}`;
  let control: HTMLInputElement | HTMLSelectElement;
  if (option.kind === "bool") {
    control = el("input", { type: "checkbox", id, name, checked: option.default === true, "data-key": id });
    return el("label", { class: "check", for: id }, [control, el("span", { text: option.label })]);
  }
  if (option.kind === "choice") {
    control = el("select", { id, name, "data-key": id });
    for (const choice of option.choices) control.append(el("option", { value: choice.value, text: choice.label, selected: choice.value === option.default }));
  } else if (option.values.length) {
    control = el("select", { id, name, "data-key": id });
    for (const value of option.values) control.append(el("option", { value, text: String(value), selected: value === option.default }));
  } else {
    control = el("input", { type: "number", id, name, min: option.low, max: option.high, value: String(option.default), "data-key": id });
  }
  return el("label", { for: id }, [el("span", { text: option.label }), control]);
}
